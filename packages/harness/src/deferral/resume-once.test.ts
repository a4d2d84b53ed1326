import type { Message } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness, type AgentHarnessOptions } from '../agent/agent-harness.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import type { ToolEffectLedger } from '../ledger/tool-effect-ledger.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { DeferredToolResults } from './deferred-tool-results.js';
import type { RunState } from './run-state.js';

function scenario(paid: string[], options: Partial<AgentHarnessOptions> = {}) {
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object({ cents: Type.Integer() }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ cents }) => {
      paid.push(`pay:${cents}`);
      return 'paid';
    },
  });
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('pay', { cents: 5 }, 'c1')] }, { content: 'done' }],
    repeatLast: true,
  });
  return new AgentHarness({ model, tools: [pay], ...options });
}

async function paused(paid: string[], options: Partial<AgentHarnessOptions> = {}) {
  const harness = scenario(paid, options);
  const run = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
  expect(run.outcome).toBe('deferred');
  const state = JSON.parse(JSON.stringify(run.state)) as RunState;
  const decisions = new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] });
  return { harness, state, decisions };
}

const extra: Message = { role: 'user', content: 'hello again' };
/** Edits that keep every approval valid but change the state's shape. */
const edits: [string, (state: RunState) => RunState][] = [
  ['a message added in front', (state) => ({ ...state, messages: [extra, ...state.messages] })],
  ['a message added at the end', (state) => ({ ...state, messages: [...state.messages, extra] })],
  [
    'the digest field dropped',
    (state) => {
      const pending = state.pending as NonNullable<RunState['pending']>;
      const approvals = pending.approvals.map(({ digest: _digest, ...call }) => call);
      return { ...state, pending: { ...pending, approvals } };
    },
  ],
];

describe('a paused call runs at most once whatever the state edit', () => {
  it.each(edits)('with resumeClaims: %s does not make a fresh claim', async (_what, edit) => {
    const paid: string[] = [];
    const claims = new InMemoryCheckpointStore();
    const { harness, state, decisions } = await paused(paid, { resumeClaims: claims });
    await harness.resumeDeferred({}, state, decisions);
    const other = scenario(paid, { resumeClaims: claims });
    await expect(other.resumeDeferred({}, edit(state), decisions)).rejects.toMatchObject({
      problem: 'already_resumed',
    });
    expect(paid).toEqual(['pay:5']);
  });

  it.each(edits)('in one harness without a store: %s is refused too', async (_what, edit) => {
    const paid: string[] = [];
    const { harness, state, decisions } = await paused(paid);
    await harness.resumeDeferred({}, state, decisions);
    await expect(harness.resumeDeferred({}, edit(state), decisions)).rejects.toMatchObject({
      problem: 'already_resumed',
    });
    expect(paid).toEqual(['pay:5']);
  });
});

describe('with a ledger and no resumeClaims', () => {
  it('two concurrent resumes of one state on one harness: one runs the call, the other is refused', async () => {
    const paid: string[] = [];
    const ledger = new InMemoryToolEffectLedger();
    const { harness, state, decisions } = await paused(paid, { ledger });
    const runs = await Promise.allSettled([
      harness.resumeDeferred({}, state, decisions),
      harness.resumeDeferred({}, state, decisions),
    ]);
    expect(runs.map((run) => run.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(paid).toEqual(['pay:5']);
  });

  it('a denied call cannot be re-approved by resuming the same state again on one harness', async () => {
    const paid: string[] = [];
    const ledger = new InMemoryToolEffectLedger();
    const harness = scenario(paid, { ledger });
    const run = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
    const call = run.deferred?.approvals[0];
    if (call === undefined) throw new Error('expected a pending approval');
    const state = JSON.stringify(run.state);
    await harness.resumeDeferred({}, state, new DeferredToolResults().deny(call, 'no'));
    await expect(harness.resumeDeferred({}, state, new DeferredToolResults().approve(call))).rejects.toMatchObject({
      problem: 'already_resumed',
    });
    await expect(
      harness.resumeDeferred({}, state, new DeferredToolResults().approveWithArgs(call, { cents: 6 })),
    ).rejects.toMatchObject({ problem: 'already_resumed' });
    expect(paid).toEqual([]);
  });

  it('two harnesses sharing a ledger without rows() run the call once, one after the other', async () => {
    const paid: string[] = [];
    const inner = new InMemoryToolEffectLedger();
    const ledger: ToolEffectLedger = {
      started: (row) => inner.started(row),
      settled: (row) => inner.settled(row),
      unresolved: (runId) => inner.unresolved(runId),
    };
    const { harness, state, decisions } = await paused(paid, { ledger });
    await harness.resumeDeferred({}, state, decisions);
    const second = await scenario(paid, { ledger }).resumeDeferred({}, state, decisions);
    expect(paid).toEqual(['pay:5']);
    expect(JSON.stringify(second.messages)).toContain('already started');
  });

  it('the in-memory ledger claims a call once', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const row = { runId: 'r', callId: 'c1', tool: 'pay', idempotencyKey: 'k' };
    expect(await ledger.started(row)).toBe(true);
    expect(await ledger.started(row)).toBe(false);
  });
});
