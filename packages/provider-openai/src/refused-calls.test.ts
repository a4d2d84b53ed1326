import { AgentHarness } from '@tiny/harness';
import { eventsOfType } from '@tiny/harness/testkit';
import { useLoopbackServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Calls the adapter refuses (fragments at two indexes under one id; a stream cut off after its
// finish reason) end to end through the harness over a 127.0.0.1 server: even when the host runs a
// broken turn's calls (`brokenTurnCalls: 'execute'`), they never run and are never repaired. Chunk
// shape from the OpenAI API reference (the chat completion chunk object: `tool_calls[].index`, the
// id sent with a call's first fragment, `data: [DONE]` ending the stream).

let first = '';
const done = { choices: [{ index: 0, message: { content: 'done' }, finish_reason: 'stop' }] };
const server = useLoopbackServer();
server.handle((_request, response, body) => {
  if (body.includes('"tool_call_id"')) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(done));
  } else response.writeHead(200, { 'content-type': 'text/event-stream' }).end(first);
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const call = (index: number, id: string | undefined, args: string) => ({
  tool_calls: [
    { index, ...(id === undefined ? {} : { id }), type: 'function', function: { name: 'bash', arguments: args } },
  ],
});
const data = (...chunks: unknown[]) => chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('');

async function run(sse: string) {
  first = sse;
  const ran: unknown[] = [];
  const bash = defineTool({
    name: 'bash',
    description: 'Runs a command.',
    parameters: Type.Object({ cmd: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: (args) => {
      ran.push(args);
      return 'ok';
    },
  });
  const model = createOpenAICompatible({ baseURL: `${server.url()}/v1`, apiKey: 'sk-secret' })('m');
  const harness = new AgentHarness({
    model,
    tools: [bash],
    policy: { brokenTurnCalls: 'execute' },
    limits: { maxRetriesPerCall: 0 },
  });
  const events = harness.stream('go');
  let error: unknown;
  try {
    for await (const _event of events);
    await events.result;
  } catch (caught) {
    error = caught;
  }
  return { ran, error, result: error === undefined ? await events.result : undefined };
}

describe('calls the OpenAI-compatible adapter refused, through the harness', () => {
  it('fragments at two indexes under one id: nothing runs', async () => {
    const { ran, error } = await run(
      `${data(
        chunk({ role: 'assistant' }),
        chunk(call(0, 'call_1', '{"cmd":"ls')),
        chunk(call(1, 'call_1', ' -la; rm -rf ~"}')),
        chunk({}, 'tool_calls'),
      )}data: [DONE]\n\n`,
    );
    expect(ran).toEqual([]);
    expect(error).toMatchObject({ kind: 'protocol_violation' });
  });

  it('a call cut off with the stream after its finish reason: refused, never repaired, even under execute', async () => {
    const { ran, result } = await run(
      // No `[DONE]`: the body ends after the finish with the call's text cut before its closing
      // brace, which a repair would close into a runnable `rm -rf /tmp/build`.
      data(
        chunk({ role: 'assistant' }),
        chunk(call(0, 'call_1', '{"cmd":"rm -rf /tmp/build"')),
        chunk({}, 'tool_calls'),
      ),
    );
    expect(ran).toEqual([]);
    expect(result?.text).toBe('done');
    expect(eventsOfType(result?.events ?? [], 'invalid_tool_args').map((event) => event.recovery)).toEqual([
      'tool_error',
    ]);
  });

  it('a whole call still runs', async () => {
    const { ran } = await run(
      `${data(chunk({ role: 'assistant' }), chunk(call(0, 'call_1', '{"cmd":"ls"}')), chunk({}, 'tool_calls'))}data: [DONE]\n\n`,
    );
    expect(ran).toEqual([{ cmd: 'ls' }]);
  });
});
