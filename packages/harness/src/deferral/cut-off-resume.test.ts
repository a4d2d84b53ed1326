import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, ScriptedModel } from '../testkit/index.js';
import { parseRunState, type RunState, serializeRunState } from './run-state.js';

// A call cut off before its block closed never runs after a crash, whatever the saved state says
// beside the transcript (splice-cutoff brief, tester script a3): the recorded call carries
// `partial`, and a version-3 state must list its cut-off calls and holds no unknown root key.

const CUT = '>>>run\n{"cmd":"rm -rf /tmp/build"';

function runTool(ran: unknown[]) {
  return defineTool({
    name: 'run',
    description: 'Runs a command.',
    parameters: Type.Object({ cmd: Type.String() }),
    policy: ToolPolicy.readOnly(),
    execute: (args) => {
      ran.push(args);
      return 'ok';
    },
  });
}

/** The checkpoint written after the model's turn `content` (the run crashes there), as JSON. */
async function checkpointOf(content: string): Promise<Record<string, unknown>> {
  let saved: string | undefined;
  const harness = new AgentHarness({
    model: new ScriptedModel({ steps: [{ content }] }),
    tools: [runTool([])],
    policy: { toolDialect: 'tagged_json' },
  });
  await expect(
    harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }], {
      onCheckpoint: (state) => {
        saved = serializeRunState(state);
        throw new Error('crash');
      },
    }),
  ).rejects.toThrow('crash');
  if (saved === undefined) throw new Error('no checkpoint');
  return JSON.parse(saved) as Record<string, unknown>;
}

async function resume(state: unknown) {
  const ran: unknown[] = [];
  const run = await new AgentHarness({
    model: new ScriptedModel({ steps: [{ content: 'done' }] }),
    tools: [runTool(ran)],
    policy: { toolDialect: 'tagged_json' },
  }).resume({}, parseRunState(JSON.stringify(state)));
  return { ran, run };
}

describe('a cut-off text call across a crash', () => {
  it('is recorded partial on the call itself, and the state lists it (version 3)', async () => {
    const saved = await checkpointOf(CUT);
    const messages = saved.messages as RunState['messages'];
    const last = messages.at(-1);
    expect(last?.role === 'assistant' ? last.toolCalls?.[0] : undefined).toMatchObject({
      name: 'run',
      grammar: 'tagged_json',
      partial: true,
    });
    expect(saved).toMatchObject({ version: 3, cutOffCalls: [expect.any(String)] });
    const { ran, run } = await resume(saved);
    expect(ran).toEqual([]);
    expect(run.outcome).toBe('final');
  });

  it('never runs when the list is dropped or emptied and the version lowered (the call keeps its flag)', async () => {
    const { cutOffCalls: _dropped, ...rest } = await checkpointOf(CUT);
    for (const state of [
      { ...rest, version: 1 },
      { ...rest, version: 2, toolChoice: { type: 'none' } },
      {
        ...rest,
        version: 1,
        messages: (rest.messages as RunState['messages']).map((message) =>
          message.role === 'assistant' && message.toolCalls !== undefined
            ? { ...message, toolCalls: message.toolCalls.map(({ grammar: _grammar, ...call }) => call) }
            : message,
        ),
      },
    ]) {
      const { ran, run } = await resume(state);
      expect(ran).toEqual([]);
      const completed = eventsOfType(run.events, 'tool_completed');
      expect(completed).toHaveLength(1);
      expect(completed[0]?.error).toMatch(/cut off/);
    }
  });

  it('a version-3 state without its list, with an empty one, or with a renamed field is refused', async () => {
    const saved = await checkpointOf(CUT);
    const { cutOffCalls, ...rest } = saved;
    for (const state of [rest, { ...rest, cutOffCalls: [] }, { ...rest, cutoffCalls: cutOffCalls }])
      expect(() => parseRunState(JSON.stringify(state))).toThrow(InvalidRunStateError);
    expect(() => parseRunState(JSON.stringify({ ...rest, cutoffCalls: cutOffCalls }))).toThrow(/`cutoffCalls`/);
    expect(() => parseRunState(JSON.stringify({ ...saved, version: 4, extra: 1 }))).toThrow(/unknown field `extra`/);
  });

  it('a whole call still runs after a crash', async () => {
    const saved = await checkpointOf('>>>run\n{"cmd":"ls"}');
    expect(saved.version).toBe(1);
    const { ran } = await resume(saved);
    expect(ran).toEqual([{ cmd: 'ls' }]);
  });
});

describe('a call inside an unclosed wrapper', () => {
  it.each([
    '<tool_call><run><cmd>rm -rf /tmp/build</cmd></run>',
    '<tool_calls><run><cmd>rm -rf /tmp/build</cmd></run>',
  ])('never runs: %s is answered as one cut-off call', async (content) => {
    const ran: unknown[] = [];
    const tools = new ToolRegistry().register(runTool(ran), { format: { type: 'xml' } });
    const run = await new AgentHarness({
      model: new ScriptedModel({ steps: [{ content }, { content: 'done' }] }),
      tools,
    }).invoke({}, [{ role: 'user', content: 'go' }]);
    expect(ran).toEqual([]);
    const completed = eventsOfType(run.events, 'tool_completed');
    expect(completed.map((event) => event.toolName)).toEqual(['run']);
    expect(completed[0]?.error).toMatch(/cut off/);
  });
});
