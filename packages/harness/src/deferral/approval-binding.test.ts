import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness, type AgentHarnessOptions } from '../agent/agent-harness.js';
import { DeferredResolutionError } from '../errors/deferred-resolution-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { approvalDigest } from './approval-digest.js';
import { DeferredToolResults } from './deferred-tool-results.js';
import { parseRunState, type RunState } from './run-state.js';
import { signRunState } from './run-state-signature.js';

/** A payment that needs approval, then a final answer (twice, so a run can be resumed twice). */
function scenario(options: Partial<AgentHarnessOptions> = {}) {
  const paid: string[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: Type.Object(
      { to: Type.String(), cents: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false },
    ),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }) => {
      paid.push(`${to}:${cents}`);
      return `paid ${cents} to ${to}`;
    },
  });
  const refund = defineTool({
    name: 'refund',
    description: 'Refund someone.',
    parameters: Type.Object({ to: Type.String(), cents: Type.Integer() }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ to, cents }) => {
      paid.push(`refund:${to}:${cents}`);
      return 'refunded';
    },
  });
  const model = new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('pay', { to: 'ada', cents: 500 }, 'c1')] },
      { content: 'done' },
      { content: 'done again' },
    ],
  });
  const harness = new AgentHarness({ model, tools: [pay, refund], ...options });
  return { paid, harness };
}

async function paused(options: Partial<AgentHarnessOptions> = {}) {
  const setup = scenario(options);
  const run = await setup.harness.invoke({ runId: 'run-1' }, [{ role: 'user', content: 'pay ada' }]);
  expect(run.outcome).toBe('deferred');
  return { ...setup, run, state: run.state as RunState };
}

/** A deep copy of the state with the pending approval (and the transcript call) changed. */
function edit(state: RunState, change: { args?: unknown; toolName?: string; callId?: string; digest?: string }) {
  const copy = JSON.parse(JSON.stringify(state)) as {
    pending: { approvals: Record<string, unknown>[] };
    messages: { role: string; toolCalls?: { id: string; name: string; arguments: string }[] }[];
  };
  const approval = copy.pending.approvals[0] as Record<string, unknown>;
  const assistant = copy.messages.find((message) => message.role === 'assistant');
  const call = assistant?.toolCalls?.[0];
  if (change.args !== undefined) {
    approval.arguments = change.args;
    if (call) call.arguments = JSON.stringify(change.args);
  }
  if (change.toolName !== undefined) {
    approval.toolName = change.toolName;
    if (call) call.name = change.toolName;
  }
  if (change.callId !== undefined) {
    approval.callId = change.callId;
    if (call) call.id = change.callId;
  }
  if (change.digest !== undefined) approval.digest = change.digest;
  return copy as unknown as RunState;
}

describe('approvals bound to the exact call', () => {
  it('gives each pending call a digest of (run id, call id, tool name, arguments); approveAll carries it', async () => {
    const { run } = await paused();
    const [call] = run.deferred?.approvals ?? [];
    expect(call?.policy).toMatch(/^policy-sha256:[0-9a-f]{64}$/);
    expect(call?.digest).toBe(
      approvalDigest({
        runId: 'run-1',
        callId: 'c1',
        toolName: 'pay',
        arguments: { cents: 500, to: 'ada' },
        policy: call?.policy,
      }),
    );
    const decisions = new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] });
    expect(decisions.get('c1')).toEqual({ kind: 'approve', digest: call?.digest });
    expect(DeferredToolResults.fromJSON(JSON.parse(JSON.stringify(decisions.toJSON()))).get('c1')).toEqual({
      kind: 'approve',
      digest: call?.digest,
    });
    // A bare id still works and carries no digest.
    expect(new DeferredToolResults().approve('c1').get('c1')).toEqual({ kind: 'approve' });
  });

  it('signs with approvalSecret (HMAC) and a key function of the run id', async () => {
    const keys: string[] = [];
    const a = await paused({ approvalSecret: 'secret-a-0123456789abcdef' });
    const b = await paused({ approvalSecret: 'secret-b-0123456789abcdef' });
    const c = await paused({
      approvalSecret: (runId) => {
        keys.push(runId);
        return 'secret-a-0123456789abcdef';
      },
    });
    const digest = (run: typeof a.run) => run.deferred?.approvals[0]?.digest;
    expect(digest(a.run)).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(digest(a.run)).not.toBe(digest(b.run));
    expect(digest(c.run)).toBe(digest(a.run));
    expect(keys).toContain('run-1');
  });

  it('runs the approved call when nothing changed', async () => {
    const { harness, paid, run, state } = await paused({ approvalSecret: 'approval-key-0123456789' });
    const done = await harness.resumeDeferred(
      {},
      JSON.stringify(state),
      new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] }),
    );
    expect(done.text).toBe('done');
    expect(paid).toEqual(['ada:500']);
  });

  it.each([
    ['arguments', { args: { to: 'mallory', cents: 99_999 } }],
    ['tool name', { toolName: 'refund' }],
    ['call id', { callId: 'c9' }],
  ])('refuses a state whose pending %s were edited after the pause; nothing runs', async (_what, change) => {
    for (const secret of [undefined, 'approval-key-0123456789']) {
      const { harness, paid, state } = await paused(secret === undefined ? {} : { approvalSecret: secret });
      const tampered = edit(state, change);
      // Decisions made from the tampered state itself: the state's digest no longer matches.
      const fresh = new DeferredToolResults().approveAll(parseRunState(tampered).pending ?? { approvals: [] });
      await expect(harness.resumeDeferred({}, tampered, fresh)).rejects.toSatisfy(InvalidRunStateError.isInstance);
      expect(paid).toEqual([]);
    }
  });

  it('without a secret, a recomputed digest still fails against the decision made at the pause', async () => {
    const { harness, paid, run, state } = await paused();
    const decisions = new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] });
    const args = { to: 'mallory', cents: 99_999 };
    const policy = state.pending?.approvals[0]?.policy;
    const forged = approvalDigest({ runId: 'run-1', callId: 'c1', toolName: 'pay', arguments: args, policy });
    const tampered = edit(state, { args, digest: forged });
    const error = await harness.resumeDeferred({}, tampered, decisions).catch((caught: unknown) => caught);
    expect(DeferredResolutionError.isInstance(error) && error.problem).toBe('digest_mismatch');
    expect(paid).toEqual([]);
  });

  it('with a secret, a forged plain digest or a missing one is refused (no downgrade)', async () => {
    const { harness, paid, state } = await paused({ approvalSecret: 'approval-key-0123456789' });
    const args = { to: 'mallory', cents: 99_999 };
    const policy = state.pending?.approvals[0]?.policy;
    const forged = approvalDigest({ runId: 'run-1', callId: 'c1', toolName: 'pay', arguments: args, policy });
    const decisions = (target: RunState) =>
      new DeferredToolResults().approveAll(parseRunState(target).pending ?? { approvals: [] });
    const withForged = edit(state, { args, digest: forged });
    // The state's own signature (stateSecret defaults to approvalSecret) refuses the edit first...
    await expect(harness.resumeDeferred({}, withForged, decisions(withForged))).rejects.toThrow(
      /signature does not match/,
    );
    // ...and the call digests still hold under a re-signed state (a leaked state key alone forges no approval).
    const resigned = signRunState(withForged, 'approval-key-0123456789');
    await expect(harness.resumeDeferred({}, resigned, decisions(resigned))).rejects.toThrow(/digest does not match/);
    const unsigned = edit(state, { args });
    const first = unsigned.pending?.approvals[0] as { digest?: string } | undefined;
    if (first !== undefined) delete first.digest;
    const unsignedResigned = signRunState(unsigned, 'approval-key-0123456789');
    await expect(harness.resumeDeferred({}, unsignedResigned, decisions(unsigned))).rejects.toThrow(
      /carries no digest/,
    );
    // A state signed with another secret is refused too.
    const other = await paused({ approvalSecret: 'other-key-0123456789abc' });
    await expect(harness.resumeDeferred({}, other.state, decisions(other.state))).rejects.toSatisfy(
      InvalidRunStateError.isInstance,
    );
    expect(paid).toEqual([]);
  });

  it('approveWithArgs stays allowed (bound to the call, arguments validated)', async () => {
    const { harness, paid, run, state } = await paused({ approvalSecret: 'approval-key-0123456789' });
    const [call] = run.deferred?.approvals ?? [];
    if (call === undefined) throw new Error('no approval');
    const bad = await harness
      .resumeDeferred({}, state, new DeferredToolResults().approveWithArgs(call, { to: 'ada', cents: 0 }))
      .catch((error: unknown) => error);
    expect(paid).toEqual([]);
    expect(DeferredResolutionError.isInstance(bad) && bad.problem).toBe('invalid_arguments');
    await harness.resumeDeferred(
      {},
      state,
      new DeferredToolResults().approveWithArgs(call, { to: 'ada', cents: 250 }),
      {
        resumeOnce: false,
      },
    );
    expect(paid).toEqual(['ada:250']);
  });

  it('refuses to resume the same paused state twice without a ledger; a refused attempt does not count', async () => {
    const { harness, paid, run, state } = await paused();
    const approve = () => new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] });
    // A refused resume (no decision) consumes nothing.
    await expect(harness.resumeDeferred({}, state, new DeferredToolResults())).rejects.toSatisfy(
      DeferredResolutionError.isInstance,
    );
    await harness.resumeDeferred({}, JSON.stringify(state), approve());
    const again = await harness.resumeDeferred({}, JSON.stringify(state), approve()).catch((error: unknown) => error);
    expect(DeferredResolutionError.isInstance(again) && again.problem).toBe('already_resumed');
    expect(paid).toEqual(['ada:500']);
  });

  it('refuses a repeated resume in one harness with a ledger too', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const { harness, paid, run, state } = await paused({ ledger });
    const approve = () => new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] });
    await harness.resumeDeferred({}, state, approve());
    await expect(harness.resumeDeferred({}, state, approve())).rejects.toMatchObject({ problem: 'already_resumed' });
    expect(paid).toEqual(['ada:500']);
  });

  it('rejects a malformed approvalSecret and digest', () => {
    const model = new ScriptedModel({ steps: [] });
    expect(() => new AgentHarness({ model, approvalSecret: '' })).toThrow(/approvalSecret/);
    expect(() => new AgentHarness({ model, approvalSecret: 42 as never })).toThrow(/approvalSecret/);
    expect(() => new DeferredToolResults().approve({ callId: 'c1', digest: 7 as never })).toThrow(/digest/);
  });
});
