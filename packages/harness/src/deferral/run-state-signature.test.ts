import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { ScriptedModel, scriptedRefusedToolCall, scriptedToolCall } from '../testkit/index.js';
import { DeferredToolResults } from './deferred-tool-results.js';
import { type RunState, serializeRunState } from './run-state.js';

// Found by the refused-call tester: a checkpoint edited outside the harness (refusedCalls dropped,
// the version lowered, a new call appended to the transcript) resumed and ran the refused or the
// forged call, even with approvalSecret set. A signing harness now refuses any state it did not
// write unedited, before anything runs.

const SECRET = 'k'.repeat(32);
const REASON = 'tool call id `call_1` names two calls; no call of it may run';

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

async function crashedCheckpoint(options: { approvalSecret?: string; stateSecret?: string }): Promise<RunState> {
  const harness = new AgentHarness({
    model: new ScriptedModel({
      steps: [{ toolCalls: [scriptedRefusedToolCall('run', '{"cmd":"rm -rf /"}', REASON, 'call_1')] }],
    }),
    tools: [runTool([])],
    ...options,
  });
  let saved: RunState | undefined;
  await expect(
    harness.invoke({}, 'go', {
      onCheckpoint: (state) => {
        saved = structuredClone(state);
        throw new Error('crash');
      },
    }),
  ).rejects.toThrow();
  if (saved === undefined) throw new Error('no checkpoint was written');
  return saved;
}

function resumer(ran: unknown[], options: { approvalSecret?: string; stateSecret?: string }) {
  return new AgentHarness({
    model: new ScriptedModel({ steps: [{ content: 'done' }, { content: 'done' }] }),
    tools: [runTool(ran)],
    ...options,
  });
}

type Forgery = (state: { -readonly [K in keyof RunState]: unknown } & Record<string, unknown>) => void;
const forgeries: Record<string, Forgery> = {
  'refusedCalls dropped, version 1': (state) => {
    delete state.refusedCalls;
    state.version = 1;
  },
  'refusedCalls emptied': (state) => {
    state.refusedCalls = [];
  },
  'a new call appended': (state) => {
    const last = (state.messages as { toolCalls: unknown[] }[]).at(-1);
    last?.toolCalls.push({ id: 'new1', name: 'run', arguments: '{"cmd":"forged"}' });
  },
  'signature removed': (state) => {
    delete state.signature;
  },
  'signature of another state': (state) => {
    state.runId = `${String(state.runId)}x`;
  },
};

describe('signed run states', () => {
  for (const options of [{ approvalSecret: SECRET }, { stateSecret: SECRET }]) {
    const label = Object.keys(options)[0];
    it(`a checkpoint written with ${label} carries a signature and resumes unedited`, async () => {
      const saved = await crashedCheckpoint(options);
      expect(saved.signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
      const ran: unknown[] = [];
      // Through a store's serialisation too: the signature survives JSON.
      const run = await resumer(ran, options).resume({}, serializeRunState(saved));
      expect(run.text).toBe('done');
      expect(ran).toEqual([]);
    });

    for (const [name, forge] of Object.entries(forgeries)) {
      it(`${label}: an edited checkpoint (${name}) is refused as tampered and nothing runs`, async () => {
        const forged = structuredClone(await crashedCheckpoint(options)) as never;
        forge(forged);
        const ran: unknown[] = [];
        const error = await resumer(ran, options)
          .resume({}, forged)
          .catch((caught: unknown) => caught);
        expect(InvalidRunStateError.isInstance(error)).toBe(true);
        expect((error as InvalidRunStateError).problem).toBe('tampered');
        expect(ran).toEqual([]);
      });
    }
  }

  it('a state signed with another key is refused', async () => {
    const saved = await crashedCheckpoint({ stateSecret: SECRET });
    const error = await resumer([], { stateSecret: 'z'.repeat(32) })
      .resume({}, saved)
      .catch((caught: unknown) => caught);
    expect((error as InvalidRunStateError).problem).toBe('tampered');
  });

  it('without a secret states are unsigned and resume as before', async () => {
    const saved = await crashedCheckpoint({});
    expect(saved.signature).toBeUndefined();
    const ran: unknown[] = [];
    await resumer(ran, {}).resume({}, saved);
    expect(ran).toEqual([]);
  });

  it('a paused run.state is signed; resumeDeferred and streamResumeDeferred refuse an edited one', async () => {
    const ran: unknown[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pay.',
      parameters: Type.Object({ cents: Type.Integer() }),
      policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
      execute: (args) => {
        ran.push(args);
        return 'paid';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('pay', { cents: 5 }, 'c1')] }, { content: 'ok' }, { content: 'ok' }],
    });
    const store = new InMemoryCheckpointStore();
    const harness = new AgentHarness({ model, tools: [pay], stateSecret: SECRET });
    const paused = await harness.invoke({ runId: 'r1' }, 'pay');
    const state = paused.state;
    if (state === undefined) throw new Error('the run did not pause');
    expect(state.signature).toMatch(/^hmac-sha256:/);
    await store.save(state);
    const stored = await store.load('r1');
    if (stored === undefined) throw new Error('not stored');
    const forged = structuredClone(stored) as { budgets: { modelCalls: number } };
    forged.budgets.modelCalls = 0;
    const results = new DeferredToolResults().approveAll(paused.deferred!);
    for (const attempt of [
      () => harness.resumeDeferred({}, forged as never, results),
      () => harness.streamResumeDeferred({}, forged as never, results).result,
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect((error as InvalidRunStateError).problem).toBe('tampered');
    }
    expect(ran).toEqual([]);
    await harness.resumeDeferred({}, stored, results);
    expect(ran).toEqual([{ cents: 5 }]);
  });
});
