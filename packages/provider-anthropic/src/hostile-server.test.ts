import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentHarness } from '@tiny/harness';
import { collectStreamSettled, type LanguageModelV1Request } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';
import { AnthropicCallError } from './errors/anthropic-call-error.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A 127.0.0.1 server whose answer is set per test; it counts the requests it gets and their keys. */
function hostile() {
  const state = {
    handler: (() => undefined) as Handler,
    requests: 0,
    keys: [] as unknown[],
    server: undefined as unknown as Server,
    url: '',
  };
  state.server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      state.requests += 1;
      state.keys.push(request.headers['x-api-key']);
      state.handler(request, response, body);
    });
  });
  return state;
}

const api = hostile();
const elsewhere = hostile();
beforeAll(async () => {
  for (const server of [api, elsewhere]) {
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    server.url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  }
});
afterAll(async () => {
  for (const server of [api, elsewhere]) {
    server.server.closeAllConnections();
    await new Promise((resolve) => server.server.close(resolve));
  }
});

const request: LanguageModelV1Request = { messages: [{ role: 'user', content: 'the secret prompt' }] };
const message = (stopReason: string, calls = true) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude',
  content: calls
    ? [{ type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: 'a' } }]
    : [{ type: 'text', text: 'done' }],
  stop_reason: stopReason,
  usage: { input_tokens: 1, output_tokens: 1 },
});

function sseOf(body: ReturnType<typeof message>): string {
  const event = (type: string, data: unknown) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`;
  const [block] = body.content;
  const call = block !== undefined && 'id' in block ? block : undefined;
  const start =
    call !== undefined
      ? { index: 0, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }
      : { index: 0, content_block: { type: 'text', text: '' } };
  const delta =
    call !== undefined
      ? { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } }
      : { index: 0, delta: { type: 'text_delta', text: 'done' } };
  return [
    event('message_start', { message: { ...body, content: [], stop_reason: null } }),
    event('content_block_start', start),
    event('content_block_delta', delta),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: body.stop_reason }, usage: { output_tokens: 1 } }),
    event('message_stop', {}),
  ].join('');
}

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i to another origin fails typed; the key and prompt stay home',
    async (status) => {
      elsewhere.requests = 0;
      elsewhere.handler = (_request, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message('end_turn', false)));
      api.handler = (_request, response) =>
        response.writeHead(status, { location: `${elsewhere.url}/v1/messages` }).end();
      const model = createAnthropic({ baseURL: `${api.url}/v1`, apiKey: 'sk-ant-secret' })('claude');
      for (const call of [() => model.doGenerate(request), () => model.doStream(request)]) {
        const error = await call().catch((caught: unknown) => caught);
        expect(AnthropicCallError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ kind: 'redirect', statusCode: status, isRetryable: false });
      }
      expect(elsewhere.requests).toBe(0);
      expect(elsewhere.keys).toEqual([]);
    },
  );
});

describe('stop reasons', () => {
  const written: string[] = [];
  const writeFile = defineTool({
    name: 'write_file',
    description: 'Write a file.',
    parameters: Type.Object({ path: Type.String() }),
    policy: ToolPolicy.classified().withSideEffects({ writesFiles: true }),
    execute: ({ path }) => {
      written.push(path);
      return 'written';
    },
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content_filter'],
    ['SAFETY', 'content_filter'],
    ['abort', 'error'],
    ['something_new', 'error'],
  ])('a turn that stops with %s (%s) does not run its calls, streamed or not', async (raw, mapped) => {
    for (const streaming of [false, true]) {
      let turn = 0;
      api.handler = (_request, response, sent) => {
        turn += 1;
        const body = turn === 1 ? message(raw) : message('end_turn', false);
        if ((JSON.parse(sent) as { stream?: boolean }).stream)
          response.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseOf(body));
        else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const model = createAnthropic({ baseURL: `${api.url}/v1` })('claude');
      const generated = await model.doGenerate(request);
      expect([generated.finishReason, generated.rawFinishReason]).toEqual([mapped, raw]);
      turn = 0;
      const harness = new AgentHarness({ model, tools: [writeFile] });
      const messages = [{ role: 'user' as const, content: 'write a' }];
      let run: Awaited<ReturnType<typeof harness.invoke>>;
      if (streaming) {
        const stream = harness.stream({}, messages);
        for await (const _event of stream);
        run = await stream.result;
      } else run = await harness.invoke({}, messages);
      expect(written).toEqual([]);
      expect(run.executedTools).toEqual([]);
      expect(run.events.filter((event) => event.type === 'tool_call_refused')).toHaveLength(1);
    }
  });
});

describe('bounds', () => {
  const model = (limits: Parameters<typeof createAnthropic>[0]['limits']) =>
    createAnthropic({ baseURL: `${api.url}/v1`, limits })('claude');

  it('ping events forever end the stream with response_timeout', async () => {
    api.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => response.write('event: ping\ndata: {"type": "ping"}\n\n'), 5);
      response.on('close', () => clearInterval(timer));
    };
    const { stream } = await model({ idleTimeoutMs: 150 }).doStream(request);
    const settled = await collectStreamSettled(stream);
    expect(AnthropicCallError.isInstance(settled.error)).toBe(true);
    expect(settled.error).toMatchObject({ kind: 'timeout', providerKind: 'response_timeout', isRetryable: true });
  });

  it('a giant SSE line ends the stream with response_too_large', async () => {
    api.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"');
      const block = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (!response.destroyed && response.write(block));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    };
    const { stream } = await model({ maxEventBytes: 128 * 1024 }).doStream(request);
    expect((await collectStreamSettled(stream)).error).toMatchObject({ kind: 'response_too_large' });
  });

  it('a body that never ends fails doGenerate typed', async () => {
    api.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
    };
    await expect(model({ idleTimeoutMs: 150 }).doGenerate(request)).rejects.toMatchObject({
      kind: 'timeout',
      providerKind: 'response_timeout',
    });
  });
});
