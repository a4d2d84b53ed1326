import { AgentHarness } from '@tiny/harness';
import { describeHostileServer, type HostileServerWire, useLoopbackServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';
import { AnthropicCallError } from './errors/anthropic-call-error.js';

// Hostile servers (issue 34's breakers), run by the shared suite over real 127.0.0.1 servers, then
// the harness over the same wire: a turn with a broken stop reason never runs its calls. Shapes
// from Anthropic's Messages API reference and streaming guide (ping events included).

const message = (stopReason: string, calls: boolean) => ({
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

function sseOf(body: ReturnType<typeof message>, calls: boolean): string {
  const event = (type: string, data: unknown) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`;
  const start = calls
    ? { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: {} } }
    : { index: 0, content_block: { type: 'text', text: '' } };
  const delta = calls
    ? { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' } }
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

const wire: HostileServerWire = {
  path: '/v1/messages',
  keyHeader: 'x-api-key',
  turn: (raw, withCall) => ({ json: message(raw, withCall), sse: sseOf(message(raw, withCall), withCall) }),
  brokenEndings: [
    ['MAX_TOKENS', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content_filter'],
    ['SAFETY', 'content_filter'],
    ['abort', 'error'],
    ['something_new', 'error'],
  ],
  giantEventOpening: 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"',
  keepAlives: ['event: ping\ndata: {"type": "ping"}\n\n'],
};

describeHostileServer({
  name: 'Anthropic against a hostile server',
  create: (settings) => createAnthropic(settings)('claude'),
  errorClass: AnthropicCallError,
  wire,
});

describe('a broken stop reason under the harness', () => {
  const api = useLoopbackServer();
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

  it.each(wire.brokenEndings)('a turn that stops with %s (%s) does not run its calls, streamed or not', async (raw) => {
    for (const streaming of [false, true]) {
      let turn = 0;
      api.handle((_request, response, sent) => {
        turn += 1;
        const body = wire.turn(turn === 1 ? raw : 'end_turn', turn === 1);
        if ((JSON.parse(sent) as { stream?: boolean }).stream)
          response.writeHead(200, { 'content-type': 'text/event-stream' }).end(body.sse);
        else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body.json));
      });
      const harness = new AgentHarness({
        model: createAnthropic({ baseURL: `${api.url()}/v1` })('claude'),
        tools: [writeFile],
      });
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
