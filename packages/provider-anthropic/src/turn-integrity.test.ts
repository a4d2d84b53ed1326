import { AgentHarness } from '@tiny/harness';
import { useLoopbackServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';
import { AnthropicCallError } from './errors/anthropic-call-error.js';

/** What the 127.0.0.1 server sends for a run's first request (a request with a tool result gets `done`). */
let first: { sse?: string; json?: string } = {};
const done = { id: 'm2', type: 'message', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' };
const server = useLoopbackServer();
server.handle((_request, response, body) => {
  const answer = body.includes('"tool_result"') ? { json: JSON.stringify(done) } : first;
  if (answer.sse !== undefined) response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer.sse);
  else response.writeHead(200, { 'content-type': 'application/json' }).end(answer.json);
});

const message = (stop: unknown, absent = false) =>
  JSON.stringify({
    id: 'm',
    type: 'message',
    content: [{ type: 'tool_use', id: 't1', name: 'danger', input: { x: 'a' } }],
    ...(absent ? {} : { stop_reason: stop }),
  });
const event = (type: string, fields: Record<string, unknown> = {}) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
const start = event('message_start', { message: { id: 'm', usage: {} } });
const toolStart = (index = 0) =>
  event('content_block_start', {
    index,
    content_block: { type: 'tool_use', id: `t${index}`, name: 'danger', input: {} },
  });
const toolJson = (json: string, index = 0) =>
  event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json } });
const stopBlock = (index = 0) => event('content_block_stop', { index });
const stopWith = (reason: unknown) => event('message_delta', { delta: { stop_reason: reason } });
const end = event('message_stop');
const tool = [start, toolStart(), toolJson('{"x":"a"}'), stopBlock()];

async function run(stream: boolean): Promise<{ ran: unknown[]; error: unknown }> {
  const ran: unknown[] = [];
  const danger = defineTool({
    name: 'danger',
    description: 'Does something.',
    parameters: Type.Object({ x: Type.Optional(Type.String()) }),
    policy: ToolPolicy.readOnly(),
    execute: (args) => {
      ran.push(args);
      return 'ok';
    },
  });
  const model = createAnthropic({ baseURL: `${server.url()}/v1`, apiKey: 'sk-ant-secret' })('claude-x');
  const harness = new AgentHarness({ model, tools: [danger], limits: { maxRetriesPerCall: 0 } });
  try {
    if (stream) {
      const events = harness.stream('go');
      for await (const _event of events);
      await events.result;
    } else await harness.invoke('go');
    return { ran, error: undefined };
  } catch (error) {
    return { ran, error };
  }
}

describe('a turn that did not end normally never runs its calls (127.0.0.1 server)', () => {
  it.each([
    ['stop_reason 5', message(5)],
    ['stop_reason {}', message({})],
    ['stop_reason [..]', message(['tool_use'])],
    ['stop_reason true', message(true)],
    ['stop_reason null', message(null)],
    ['stop_reason ""', message('')],
    ['stop_reason absent', message(undefined, true)],
    ['stop_reason pause_turn', message('pause_turn')],
    ['type ERROR', JSON.stringify({ ...JSON.parse(message('tool_use')), type: 'ERROR' })],
  ])('JSON message, %s', async (_name, json) => {
    first = { json };
    for (const stream of [false, true]) expect((await run(stream)).ran).toEqual([]);
  });

  it.each([
    ['max_tokens then tool_use', [...tool, stopWith('max_tokens'), stopWith('tool_use'), end]],
    ['refusal then tool_use', [...tool, stopWith('refusal'), stopWith('tool_use'), end]],
    ['a non-string stop_reason', [...tool, stopWith({ r: 'tool_use' }), end]],
    [
      'end_turn then a tool_use block',
      [start, stopWith('end_turn'), toolStart(), toolJson('{"x":"a"}'), stopBlock(), end],
    ],
    [
      'a second message_start',
      [
        start,
        event('message_start', { message: { id: 'm2', usage: {} } }),
        ...tool.slice(1),
        stopWith('tool_use'),
        end,
      ],
    ],
    [
      'a non-JSON event after the stop reason',
      [...tool, stopWith('tool_use'), 'event: message_stop\ndata: {garbage\n\n'],
    ],
    [
      'an upper-case MESSAGE_DELTA saying max_tokens',
      [...tool, stopWith('tool_use'), 'data: {"type":"MESSAGE_DELTA","delta":{"stop_reason":"max_tokens"}}\n\n', end],
    ],
    ['a block never closed, then a cut', [start, toolStart(), toolJson('{"x":"a"'), stopWith('tool_use')]],
    ['a block never closed, then message_stop', [start, toolStart(), toolJson('{"x":"a"}'), stopWith('tool_use'), end]],
    [
      'start input 5,000 deep',
      [
        start,
        `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"danger","input":${'['.repeat(5000)}${']'.repeat(5000)}}}\n\n`,
        stopBlock(),
        stopWith('tool_use'),
        end,
      ],
    ],
  ])('stream, %s', async (_name, events) => {
    first = { sse: events.join('') };
    const { ran, error } = await run(true);
    expect(ran).toEqual([]);
    if (error !== undefined) expect(AnthropicCallError.isInstance(error)).toBe(true);
  });

  it.each([
    [
      'content after the stop reason',
      [start, stopWith('end_turn'), toolStart(), toolJson('{"x":"a"}'), stopBlock(), end],
    ],
    ['a second message_start', [start, event('message_start', { message: { id: 'm2', usage: {} } }), end]],
    ['513 content blocks', [start, ...Array.from({ length: 513 }, (_, index) => toolStart(index))]],
  ])('%s is a typed protocol_violation', async (_name, events) => {
    first = { sse: events.join('') };
    const { error } = await run(true);
    expect(error).toMatchObject({ kind: 'protocol_violation', isRetryable: false });
  });

  it('a clean tool_use turn still runs, streamed or not, and without message_stop', async () => {
    first = { sse: [...tool, stopWith('tool_use'), end].join('') };
    expect((await run(true)).ran).toEqual([{ x: 'a' }]);
    first = { sse: [...tool, stopWith('tool_use')].join('') };
    expect((await run(true)).ran).toEqual([{ x: 'a' }]);
    first = { json: message('tool_use') };
    expect((await run(false)).ran).toEqual([{ x: 'a' }]);
  });

  it('tool_use input 5,000 deep in a JSON message: no raw RangeError, nothing runs', async () => {
    first = {
      json: `{"type":"message","content":[{"type":"tool_use","id":"t","name":"danger","input":${'{"x":'.repeat(5000)}1${'}'.repeat(5000)}}],"stop_reason":"tool_use"}`,
    };
    const { ran, error } = await run(false);
    expect(ran).toEqual([]);
    if (error !== undefined) expect(AnthropicCallError.isInstance(error)).toBe(true);
  });
});
