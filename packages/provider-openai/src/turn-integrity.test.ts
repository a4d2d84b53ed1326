import { AgentHarness } from '@tiny/harness';
import { useLoopbackServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';
import { OpenAICompatibleCallError } from './errors/openai-compatible-call-error.js';

/** What the 127.0.0.1 server sends for a run's first request (a request with a tool result gets `done`). */
let first: { sse?: string; json?: string; status?: number } = {};
const server = useLoopbackServer();
server.handle((_request, response, body) => {
  // The first turn of a run gets `first`; a turn that carries a tool result gets `done`.
  const answer = body.includes('"tool_call_id"') ? { json: JSON.stringify(done) } : first;
  if (answer.sse !== undefined) response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer.sse);
  else response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(answer.json);
});

const done = { choices: [{ index: 0, message: { content: 'done' }, finish_reason: 'stop' }] };
const call = (args: unknown) => ({ id: 'call_1', type: 'function', function: { name: 'danger', arguments: args } });
const json = (finish: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    choices: [
      { index: 0, message: { content: null, tool_calls: [call('{"x":"a"}')] }, finish_reason: finish, ...extra },
    ],
  });
const chunk = (delta: unknown, finish?: unknown, index = 0) =>
  `data: ${JSON.stringify({ choices: [{ index, delta, ...(finish === undefined ? {} : { finish_reason: finish }) }] })}\n\n`;
const toolDelta = (args: unknown) => ({ tool_calls: [{ index: 0, ...call(args) }] });
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Runs one harness turn against `first`; returns whether the tool ran and the error, if any. */
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
  const model = createOpenAICompatible({ baseURL: `${server.url()}/v1`, apiKey: 'sk-secret' })('m');
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
    [
      'finish_reason absent',
      { json: JSON.stringify({ choices: [{ index: 0, message: { tool_calls: [call('{}')] } }] }) },
    ],
    ['finish_reason null', { json: json(null) }],
    ['finish_reason ""', { json: json('') }],
    ['finish_reason "  "', { json: json('  ') }],
    ['finish_reason 5', { json: json(5) }],
    ['finish_reason {}', { json: json({ r: 'stop' }) }],
  ])('JSON body, %s', async (_name, answer) => {
    first = answer;
    for (const stream of [false, true]) expect((await run(stream)).ran).toEqual([]);
  });

  it.each([
    ['blank finish', [chunk(toolDelta('{"x":"a"}')), chunk({}, '  '), 'data: [DONE]\n\n']],
    [
      'length then tool_calls',
      [chunk(toolDelta('{"x":"a"}')), chunk({}, 'length'), chunk({}, 'tool_calls'), 'data: [DONE]\n\n'],
    ],
    [
      'content_filter then stop',
      [chunk(toolDelta('{"x":"a"}')), chunk({}, 'content_filter'), chunk({}, 'stop'), 'data: [DONE]\n\n'],
    ],
    ['stop then a tool call', [chunk({ content: 'hi' }, 'stop'), chunk(toolDelta('{"x":"a"}')), 'data: [DONE]\n\n']],
    ['cut-off arguments, finish, connection closed', [chunk(toolDelta('{"x":"a"'), 'tool_calls')]],
    [
      'finish then an error event',
      [chunk(toolDelta('{"x":"a"')), chunk({}, 'tool_calls'), 'data: {"error":{"message":"died"}}\n\n'],
    ],
    ['finish then a non-JSON event', [chunk(toolDelta('{"x":"a"}')), chunk({}, 'tool_calls'), 'data: {oops\n\n']],
    ['non-string arguments', [chunk(toolDelta(['rm', '-rf']), 'tool_calls'), 'data: [DONE]\n\n']],
    [
      'arguments 5,000 deep',
      [
        `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"danger","arguments":${nested(5000)}}}]},"finish_reason":"tool_calls"}]}\n\n`,
        'data: [DONE]\n\n',
      ],
    ],
    [
      'finish_reason 5,000 deep',
      [
        chunk(toolDelta('{"x":"a"}')),
        `data: {"choices":[{"index":0,"delta":{},"finish_reason":${nested(5000)}}]}\n\n`,
        'data: [DONE]\n\n',
      ],
    ],
  ])('stream, %s', async (_name, events) => {
    first = { sse: events.join('') };
    const { ran, error } = await run(true);
    expect(ran).toEqual([]);
    if (error !== undefined) expect(OpenAICompatibleCallError.isInstance(error)).toBe(true);
  });

  it('a stream that sends content after the finish fails with protocol_violation', async () => {
    first = { sse: [chunk({ content: 'hi' }, 'stop'), chunk(toolDelta('{"x":"a"}')), 'data: [DONE]\n\n'].join('') };
    const { error } = await run(true);
    expect(error).toMatchObject({ kind: 'protocol_violation', isRetryable: false });
  });

  it('a clean stream still runs its calls: `stop` with calls, and a finish without [DONE]', async () => {
    first = { sse: [chunk(toolDelta('{"x":"a"}')), chunk({}, 'stop'), 'data: [DONE]\n\n'].join('') };
    expect((await run(true)).ran).toEqual([{ x: 'a' }]);
    first = { sse: [chunk(toolDelta('{"x":"a"}')), chunk({}, 'tool_calls')].join('') };
    expect((await run(true)).ran).toEqual([{ x: 'a' }]);
  });

  it.each([
    [
      '129 choices in a stream',
      {
        sse: `data: ${JSON.stringify({ choices: Array.from({ length: 129 }, (_, index) => ({ index, delta: {} })) })}\n\n`,
      },
    ],
    [
      '257 tool calls in a stream',
      {
        sse: chunk(
          {
            tool_calls: Array.from({ length: 257 }, (_, index) => ({
              index,
              id: `c${index}`,
              function: { name: 'danger', arguments: '{}' },
            })),
          },
          'tool_calls',
        ),
      },
    ],
    [
      'two JSON choices of index 0',
      {
        json: JSON.stringify({
          choices: [
            JSON.parse(json('tool_calls')).choices[0],
            { index: 0, message: { content: 'x' }, finish_reason: 'stop' },
          ],
        }),
      },
    ],
  ])('%s is a typed protocol_violation', async (_name, answer) => {
    first = answer;
    const { ran, error } = await run('sse' in answer);
    expect(ran).toEqual([]);
    expect(error).toMatchObject({ kind: 'protocol_violation' });
  });

  it.each([
    [
      'finish_reason 5,000 deep',
      { json: `{"choices":[{"index":0,"message":{"content":"x"},"finish_reason":${nested(5000)}}]}` },
    ],
    ['422 with detail 5,000 deep', { status: 422, json: `{"detail":${nested(5000)}}` }],
    [
      'arguments object 5,000 deep',
      {
        json: `{"choices":[{"index":0,"message":{"tool_calls":[{"id":"c","function":{"name":"danger","arguments":${'{"x":'.repeat(5000)}1${'}'.repeat(5000)}}}]},"finish_reason":"tool_calls"}]}`,
      },
    ],
  ])('JSON body, %s: no raw RangeError, nothing runs', async (_name, answer) => {
    first = answer;
    const { ran, error } = await run(false);
    expect(ran).toEqual([]);
    if (error !== undefined) expect(OpenAICompatibleCallError.isInstance(error)).toBe(true);
  });
});
