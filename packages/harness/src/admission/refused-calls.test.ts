import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { parseRunState, RUN_STATE_VERSION, type RunState, serializeRunState } from '../deferral/run-state.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { eventsOfType, ScriptedModel, scriptedInvalidToolCall, scriptedRefusedToolCall } from '../testkit/index.js';

// A call an adapter refused (two calls under one API id, a spliced or cut-off stream) carries
// `refused: true` besides `invalid`: admission answers it with an error and never repairs or runs
// it, however readable its argument text (the hole: a whole response with two calls under one id
// and a normal finish ran both, after "repairing" their perfectly valid raw JSON). An invalid call
// alone (unreadable argument text) is still repaired as before.

const REASON = 'the response broke the protocol: tool call id `call_1` names two calls; no call of it may run';

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

function refusedTurn() {
  return {
    toolCalls: [
      scriptedRefusedToolCall('run', '{"cmd":"rm -rf /tmp/build"}', REASON, 'call_1'),
      scriptedRefusedToolCall('run', '{"cmd":"echo hi"}', REASON, 'call_1b'),
      // Unreadable text only (a trailing comma): repaired and run, as before.
      scriptedInvalidToolCall('run', '{"cmd":"ls",}', 'Unexpected token } in JSON', 'call_2'),
    ],
    finishReason: 'tool_calls' as const,
  };
}

describe('a call the adapter refused', () => {
  it.each([false, true])('never runs, even with valid JSON and a normal finish (streaming: %s)', async (stream) => {
    const ran: unknown[] = [];
    const model = new ScriptedModel({ steps: [refusedTurn(), { content: 'done' }] });
    const harness = new AgentHarness({ model, tools: [runTool(ran)] });
    const run = stream ? await harness.stream({}, 'go').result : await harness.invoke({}, 'go');
    expect(ran).toEqual([{ cmd: 'ls' }]);
    expect(run.text).toBe('done');
    const invalid = eventsOfType(run.events, 'invalid_tool_args');
    expect(invalid.map((event) => [event.callId, event.recovery])).toEqual([
      ['call_1', 'tool_error'],
      ['call_1b', 'tool_error'],
      ['call_2', 'repaired'],
    ]);
    // The model is told why, under each refused call's id.
    const answers = run.messages.filter((message) => message.role === 'tool');
    expect(answers.map((message) => message.toolCallId)).toEqual(['call_1', 'call_1b', 'call_2']);
    expect(JSON.stringify(answers[0])).toMatch(/was not run.*names two calls/);
    const completed = eventsOfType(run.events, 'tool_completed');
    expect(completed.map((event) => [event.callId, event.error !== undefined])).toEqual([
      ['call_1', true],
      ['call_1b', true],
      ['call_2', false],
    ]);
  });

  it('is answered before any beforeTool hook, so no hook can make it runnable', async () => {
    const ran: unknown[] = [];
    const seen: string[] = [];
    const launder: AgentMiddleware = {
      name: 'launder',
      beforeTool: (call) => {
        seen.push(call.id);
        return { id: call.id, name: call.name, arguments: { cmd: 'laundered' } };
      },
    };
    const model = new ScriptedModel({ steps: [refusedTurn(), { content: 'done' }] });
    await new AgentHarness({ model, tools: [runTool(ran)], middleware: [launder] }).invoke({}, 'go');
    expect(seen).toEqual(['call_2']);
    expect(ran).toEqual([{ cmd: 'laundered' }]);
  });

  it('a hook that marks a call refused stops it too', async () => {
    const ran: unknown[] = [];
    const refuse: AgentMiddleware = { name: 'refuse', beforeTool: (call) => ({ ...call, refused: true }) };
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedInvalidToolCall('run', '{"cmd":"ls",}', 'bad', 'c1')], finishReason: 'tool_calls' },
        { content: 'done' },
      ],
    });
    await new AgentHarness({ model, tools: [runTool(ran)], middleware: [refuse] }).invoke({}, 'go');
    expect(ran).toEqual([]);
  });
});

describe('a refused call across a crash', () => {
  /** Runs until the first checkpoint is stored, then "crashes" (the listener throws after saving). */
  async function crashAfterCheckpoint(harness: AgentHarness): Promise<RunState> {
    const store = new InMemoryCheckpointStore();
    await expect(
      harness.invoke({ runId: 'r' }, 'go', {
        onCheckpoint: async (state) => {
          await store.save(state);
          throw new Error('crash');
        },
      }),
    ).rejects.toThrow(/crash/);
    return parseRunState(JSON.parse(serializeRunState((await store.load('r')) as RunState)));
  }

  it('is listed in the checkpoint (version 4) and never runs on resume', async () => {
    const ran: unknown[] = [];
    const model = new ScriptedModel({ steps: [refusedTurn()] });
    const saved = await crashAfterCheckpoint(new AgentHarness({ model, tools: [runTool(ran)] }));
    expect(ran).toEqual([]);
    expect(saved.version).toBe(RUN_STATE_VERSION);
    expect(saved.refusedCalls).toEqual(['call_1', 'call_1b']);
    // The transcript holds the raw (valid) JSON: only the marker keeps the resume from running it.
    const calls = (saved.messages.at(-1) as unknown as { toolCalls: { arguments: string }[] }).toolCalls;
    expect(JSON.parse(calls[0]?.arguments ?? '')).toEqual({ cmd: 'rm -rf /tmp/build' });

    const run = await new AgentHarness({
      model: new ScriptedModel({ steps: [{ content: 'done' }] }),
      tools: [runTool(ran)],
    }).resume({}, saved);
    expect(ran).toEqual([{ cmd: 'ls' }]);
    expect(eventsOfType(run.events, 'invalid_tool_args').map((event) => [event.callId, event.recovery])).toEqual([
      ['call_1', 'tool_error'],
      ['call_1b', 'tool_error'],
      ['call_2', 'repaired'],
    ]);
    expect(run.text).toBe('done');
  });

  it('a checkpoint without refused calls stays below version 4', async () => {
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedInvalidToolCall('run', '{"cmd":"ls",}', 'bad', 'c1')] }],
    });
    const saved = await crashAfterCheckpoint(new AgentHarness({ model, tools: [runTool([])] }));
    expect(saved.version).toBe(1);
    expect(saved.refusedCalls).toBeUndefined();
  });

  it('refuses refusedCalls below version 4 and ids that are not open', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'run', arguments: '{"cmd":"ls"}' }] },
    ];
    const base = { runId: 'r', messages, budgets: { modelCalls: 1, toolCalls: 0 }, usage: {} };
    expect(parseRunState({ ...base, version: 4, refusedCalls: ['c1'] }).refusedCalls).toEqual(['c1']);
    for (const version of [1, 2, 3])
      expect(() => parseRunState({ ...base, version, refusedCalls: ['c1'] })).toThrow(/needs schema version 4/);
    expect(() => parseRunState({ ...base, version: 4, refusedCalls: ['c9'] })).toThrow(InvalidRunStateError);
    expect(() => parseRunState({ ...base, version: 4, refusedCalls: [7] })).toThrow(InvalidRunStateError);
  });
});
