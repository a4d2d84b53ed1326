import { AgentHarness, type AgentRun } from '@tiny/harness';
import { eventsOfType } from '@tiny/harness/testkit';
import { useLoopbackServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';

// Calls the adapter refuses (two tool_use blocks under one id; a call the token limit cut off) end
// to end through the harness over a 127.0.0.1 server: however valid their argument text, and even
// when the host runs a broken turn's calls (`brokenTurnCalls: 'execute'`), they never run and are
// never repaired. Message shape from the Anthropic Messages API reference (`tool_use` content
// blocks with `id`, `name`, `input`; `stop_reason` `tool_use` / `max_tokens`).

let first = '';
const done = { id: 'm2', type: 'message', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' };
const server = useLoopbackServer();
server.handle((_request, response, body) => {
  const answer = body.includes('"tool_result"') ? JSON.stringify(done) : first;
  response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
});

async function run(answer: unknown, brokenTurnCalls: 'refuse' | 'execute'): Promise<{ ran: unknown[]; run: AgentRun }> {
  first = JSON.stringify(answer);
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
  const model = createAnthropic({ baseURL: `${server.url()}/v1`, apiKey: 'sk-ant-secret' })('claude-x');
  const harness = new AgentHarness({ model, tools: [bash], policy: { brokenTurnCalls } });
  return { ran, run: await harness.invoke('go') };
}

describe('calls the Anthropic adapter refused, through the harness', () => {
  it('two tool_use blocks under one id with a normal stop: neither runs', async () => {
    const { ran, run: result } = await run(
      {
        id: 'm',
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'ls' } },
          { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'rm -rf /tmp/build' } },
        ],
        stop_reason: 'tool_use',
        usage: {},
      },
      'refuse',
    );
    expect(ran).toEqual([]);
    expect(result.text).toBe('done');
    const invalid = eventsOfType(result.events, 'invalid_tool_args');
    expect(invalid.map((event) => event.recovery)).toEqual(['tool_error', 'tool_error']);
    expect(invalid[0]?.error).toMatch(/names two calls/);
  });

  it('a call cut off by max_tokens, with brokenTurnCalls execute: never repaired or run', async () => {
    const { ran, run: result } = await run(
      {
        id: 'm',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'rm -rf /tmp/build' } }],
        stop_reason: 'max_tokens',
        usage: {},
      },
      'execute',
    );
    expect(ran).toEqual([]);
    expect(eventsOfType(result.events, 'invalid_tool_args').map((event) => event.recovery)).toEqual(['tool_error']);
  });

  it('a whole call with a normal stop still runs', async () => {
    const { ran } = await run(
      {
        id: 'm',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'ls' } }],
        stop_reason: 'tool_use',
        usage: {},
      },
      'refuse',
    );
    expect(ran).toEqual([{ cmd: 'ls' }]);
  });
});
