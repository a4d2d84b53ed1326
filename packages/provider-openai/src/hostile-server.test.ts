import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentHarness } from '@tiny/harness';
import { collectStreamSettled, type LanguageModelV1Request } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';
import { OpenAICompatibleCallError } from './errors/openai-compatible-call-error.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A 127.0.0.1 server whose answer is set per test; it counts the requests it gets. */
function hostile() {
  const state = { handler: (() => undefined) as Handler, requests: 0, server: undefined as unknown as Server, url: '' };
  state.server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      state.requests += 1;
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
const completion = (finishReason: string, calls = true) => ({
  id: 'c1',
  object: 'chat.completion',
  model: 'm',
  choices: [
    {
      index: 0,
      message: calls
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"a"}' } },
            ],
          }
        : { role: 'assistant', content: 'done' },
      finish_reason: finishReason,
    },
  ],
});

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i to another origin fails typed, and that origin gets nothing',
    async (status) => {
      elsewhere.requests = 0;
      elsewhere.handler = (_request, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion('stop', false)));
      api.handler = (_request, response) =>
        response.writeHead(status, { location: `${elsewhere.url}/v1/chat/completions` }).end();
      const model = createOpenAICompatible({ baseURL: `${api.url}/v1`, apiKey: 'sk-secret' })('m');
      for (const call of [() => model.doGenerate(request), () => model.doStream(request)]) {
        const error = await call().catch((caught: unknown) => caught);
        expect(OpenAICompatibleCallError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ kind: 'redirect', statusCode: status, isRetryable: false });
        expect((error as Error).message).toContain(`${elsewhere.url}/v1/chat/completions`);
      }
      expect(elsewhere.requests).toBe(0);
    },
  );
});

describe('finish reasons', () => {
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
    ['model_length', 'length'],
    ['insufficient_system_resource', 'error'],
    ['abort', 'error'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['recitation', 'content_filter'],
    ['never_heard_of_it', 'error'],
  ])('a turn that ends with %s (%s) does not run its calls, streamed or not', async (raw, mapped) => {
    for (const streaming of [false, true]) {
      let turn = 0;
      api.handler = (_request, response, sent) => {
        turn += 1;
        const body = turn === 1 ? completion(raw) : completion('stop', false);
        if (!(JSON.parse(sent) as { stream?: boolean }).stream) {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
          return;
        }
        const [choice] = body.choices;
        const delta =
          choice?.message.tool_calls === undefined
            ? { content: 'done' }
            : { tool_calls: [{ index: 0, ...choice.message.tool_calls[0] }] };
        const chunk = (value: unknown) =>
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [value] })}\n\n`;
        response
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(
            `${chunk({ index: 0, delta })}${chunk({ index: 0, delta: {}, finish_reason: choice?.finish_reason })}data: [DONE]\n\n`,
          );
      };
      const model = createOpenAICompatible({ baseURL: `${api.url}/v1` })('m');
      const generated = await model.doGenerate({ ...request, tools: [] });
      expect(generated.rawFinishReason).toBe(raw);
      turn = 0;
      expect(generated.finishReason).toBe(mapped);
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
  const model = (limits: Parameters<typeof createOpenAICompatible>[0]['limits']) =>
    createOpenAICompatible({ baseURL: `${api.url}/v1`, limits })('m');
  const sse = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/event-stream' });

  it('a giant SSE line ends the stream with response_too_large', async () => {
    api.handler = (_request, response) => {
      sse(response);
      response.write('data: {"choices":[{"index":0,"delta":{"content":"');
      const block = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (!response.destroyed && response.write(block));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    };
    const { stream } = await model({ maxEventBytes: 128 * 1024 }).doStream(request);
    const settled = await collectStreamSettled(stream);
    expect(settled.error).toMatchObject({ kind: 'response_too_large', isRetryable: false });
  });

  it('keep-alive comments and ping events forever end the stream with response_timeout', async () => {
    api.handler = (_request, response) => {
      sse(response);
      let beat = 0;
      const timer = setInterval(() => {
        beat += 1;
        response.write(beat % 2 === 0 ? ': keep-alive\n\n' : 'event: ping\ndata: {"type":"ping"}\n\n');
      }, 5);
      response.on('close', () => clearInterval(timer));
    };
    const { stream } = await model({ idleTimeoutMs: 150 }).doStream(request);
    const settled = await collectStreamSettled(stream);
    expect(OpenAICompatibleCallError.isInstance(settled.error)).toBe(true);
    expect(settled.error).toMatchObject({ kind: 'timeout', providerKind: 'response_timeout', isRetryable: true });
  });

  it('a body that never ends, or is too large, fails doGenerate typed', async () => {
    api.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
    };
    await expect(model({ idleTimeoutMs: 150 }).doGenerate(request)).rejects.toMatchObject({
      kind: 'timeout',
      providerKind: 'response_timeout',
    });
    api.handler = (_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion('stop', false)));
    await expect(model({ maxResponseBytes: 20 }).doGenerate(request)).rejects.toMatchObject({
      kind: 'response_too_large',
    });
  });

  it('a limit that is not a positive number is refused when the provider is created', () => {
    expect(() => createOpenAICompatible({ baseURL: api.url, limits: { idleTimeoutMs: 0 } })).toThrow(
      /limits.idleTimeoutMs must be a positive number/,
    );
  });
});
