import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@tiny/llm';
import { type AnyTool, defineTool, InvalidInputError, ToolPolicy, type ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentHarness, type AgentHarnessOptions } from '../agent/agent-harness.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { ApprovalSecretError } from '../errors/approval-secret-error.js';
import { DeferredResolutionError } from '../errors/deferred-resolution-error.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { HumanApprovalMiddleware } from '../middleware/human-approval-middleware.js';
import { createFileCheckpointStore } from '../node/file-checkpoint-store.js';
import { ScriptedModel, type ScriptedStep, scriptedToolCall } from '../testkit/index.js';
import { ApprovalRequiredToolSet } from '../toolsets/approval-required-tool-set.js';
import { toolSetFromTools } from '../toolsets/tool-set-from-tools.js';
import { approvalDigest } from './approval-digest.js';
import { DeferredToolResults } from './deferred-tool-results.js';
import type { RunState } from './run-state.js';

const user = (content: string) => [{ role: 'user' as const, content }];

/** The text of the tool answer to `callId`. */
function answerOf(messages: readonly Message[], callId: string): string {
  const answer = messages.find((message) => message.role === 'tool' && message.toolCallId === callId);
  return JSON.stringify(answer?.role === 'tool' ? answer.content : undefined);
}

function refundTool(effects: string[], gated = true) {
  return defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: Type.Object({ cents: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    policy: gated
      ? ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval()
      : ToolPolicy.classified().withSideEffects({ payment: true }),
    execute: ({ cents }) => {
      effects.push(`refund:${cents}`);
      return `refunded ${cents}`;
    },
  });
}

/** A tool that runs a program's calls as nested calls (what code mode does), over its own `nestedTools`. */
function runnerTool(program: readonly [string, unknown][], nestedTools: readonly AnyTool[] = []) {
  return defineTool({
    name: 'run_code',
    description: 'Run a program.',
    parameters: Type.Object({}),
    nestedTools,
    execute: async (_args, context) => {
      const outputs: string[] = [];
      for (const [name, args] of program) {
        try {
          if (context.callTool === undefined) throw new Error('no callTool outside a harness');
          const result: ToolResult = await context.callTool(name, args);
          outputs.push(result.output());
        } catch (error) {
          outputs.push(`refused: ${(error as Error).message}`);
        }
      }
      return outputs.join('\n');
    },
  });
}

describe('call ids the harness mints never meet provider ids', () => {
  it('an approval given for provider id `x/1` does not reach the nested call `x/1` of a later call `x`', async () => {
    const effects: string[] = [];
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('refund', { cents: 1 }, 'x/1')] },
        { toolCalls: [scriptedToolCall('run_code', {}, 'x')] },
        { content: 'done' },
      ],
    });
    const harness = new AgentHarness({
      model,
      tools: [refundTool(effects), runnerTool([['refund', { cents: 100_000 }]])],
    });
    const paused = await harness.invoke({ runId: 'r' }, user('refund'));
    const [approval] = paused.deferred?.approvals ?? [];
    expect(approval?.callId).not.toContain('/');
    const run = await harness.resumeDeferred(
      {},
      paused.state as RunState,
      new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] }),
    );
    expect(effects).toEqual(['refund:1']);
    expect(answerOf(run.messages, 'x')).toMatch(/refused: .*approval_required/);
  });

  it('gives every effect of a batch its own id and ledger row when provider ids look like nested ids', async () => {
    const effects: string[] = [];
    const ledger = new InMemoryToolEffectLedger();
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [scriptedToolCall('run_code', {}, 'x'), scriptedToolCall('refund', { cents: 2 }, 'x/1')],
        },
        { content: 'done' },
      ],
    });
    const harness = new AgentHarness({
      model,
      ledger,
      tools: [refundTool(effects, false), runnerTool([['refund', { cents: 3 }]])],
    });
    const run = await harness.invoke({ runId: 'r' }, user('go'));
    expect(effects.sort()).toEqual(['refund:2', 'refund:3']);
    const started = run.events.flatMap((event) => (event.type === 'tool_started' ? [event.callId] : []));
    expect(new Set(started).size).toBe(3);
    const rows = ledger.rows('r');
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row.callId)).size).toBe(3);
  });

  it('skips a nested id the transcript already holds', async () => {
    const effects: string[] = [];
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', {}, 'p')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [refundTool(effects, false), runnerTool([['refund', { cents: 4 }]])],
    });
    const history = [
      ...user('earlier'),
      { role: 'assistant' as const, content: '', toolCalls: [{ id: 'p/1', name: 'refund', arguments: '{"cents":9}' }] },
      { role: 'tool' as const, toolCallId: 'p/1', content: 'refunded 9' },
      ...user('again'),
    ];
    const run = await harness.invoke({ runId: 'r' }, history);
    const nested = run.events.find((event) => event.type === 'tool_started' && event.parentCallId === 'p');
    expect(nested?.type === 'tool_started' && nested.callId).toBe('p/2');
  });
});

describe('nested calls resolve through the harness gates', () => {
  it('a program cannot reach the raw copy of a tool the harness gates with ApprovalRequiredToolSet', async () => {
    const effects: string[] = [];
    const raw = refundTool(effects, false);
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', {}, 'c1')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [runnerTool([['refund', { cents: 100_000 }]], [raw])],
      toolSets: [new ApprovalRequiredToolSet(toolSetFromTools([raw]))],
    });
    const run = await harness.invoke({ runId: 'r' }, user('go'));
    expect(effects).toEqual([]);
    expect(answerOf(run.messages, 'c1')).toMatch(/refused: .*approval_required/);
  });

  it('still uses nestedTools for names the harness does not know', async () => {
    const effects: string[] = [];
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', {}, 'c1')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [runnerTool([['refund', { cents: 5 }]], [refundTool(effects, false)])],
    });
    await harness.invoke({ runId: 'r' }, user('go'));
    expect(effects).toEqual(['refund:5']);
  });
});

function payScenario(
  options: Partial<AgentHarnessOptions> = {},
  description = 'Pay someone.',
  maximum = 1_000_000,
  resumed = false,
) {
  const paid: string[] = [];
  const pay = defineTool({
    name: 'pay',
    description,
    parameters: Type.Object({ cents: Type.Integer({ minimum: 1, maximum }) }, { additionalProperties: false }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ cents }) => {
      paid.push(`pay:${cents}`);
      return `paid ${cents}`;
    },
  });
  const steps: ScriptedStep[] = [
    ...(resumed ? [] : [{ toolCalls: [scriptedToolCall('pay', { cents: 1_000_000 }, 'c1')] }]),
    { content: 'done' },
  ];
  const harness = new AgentHarness({ model: new ScriptedModel({ steps, repeatLast: true }), tools: [pay], ...options });
  return { paid, harness };
}

describe('approval keys', () => {
  it.each([
    ['an empty string', () => ''],
    ['empty bytes', () => new Uint8Array()],
    ['undefined', () => undefined as unknown as string],
  ])('refuses a key function giving %s at pause time, with a typed error', async (_what, secret) => {
    const { harness, paid } = payScenario({ approvalSecret: secret });
    await expect(harness.invoke({ runId: 'r' }, user('pay'))).rejects.toSatisfy(ApprovalSecretError.isInstance);
    expect(paid).toEqual([]);
  });

  it.each([
    ['zero-filled bytes', () => new Uint8Array(32)],
    ['a NUL string', () => '\0'.repeat(32)],
    ['a whitespace-only string', () => ' '.repeat(32)],
    ['a short key', () => 'k'],
  ])(
    'refuses %s (as weak as an empty HMAC key) with a typed error, at construction and at pause',
    async (_what, secret) => {
      expect(() => payScenario({ approvalSecret: secret() })).toThrow(InvalidInputError);
      const { harness, paid } = payScenario({ approvalSecret: secret });
      await expect(harness.invoke({ runId: 'r' }, user('pay'))).rejects.toSatisfy(ApprovalSecretError.isInstance);
      expect(paid).toEqual([]);
      // A digest "signed" with the zero key equals one signed with the empty key: refused, not computed.
      expect(() => approvalDigest({ runId: 'r', callId: 'c1', toolName: 'pay', arguments: {} }, secret())).toThrow(
        ApprovalSecretError,
      );
    },
  );

  it('refuses an empty key at resume: a digest forged with the empty key never runs', async () => {
    const { harness } = payScenario({ approvalSecret: 'approval-key-0123456789' });
    const paused = await harness.invoke({ runId: 'r' }, user('pay'));
    const state = JSON.parse(JSON.stringify(paused.state)) as {
      pending: { approvals: { digest: string; policy: string }[] };
    };
    const approval = state.pending.approvals[0];
    if (approval === undefined) throw new Error('no approval');
    const empty = payScenario({ approvalSecret: () => '' });
    expect(() =>
      approvalDigest(
        { runId: 'r', callId: 'c1', toolName: 'pay', arguments: { cents: 1 }, policy: approval.policy },
        '',
      ),
    ).toThrow(ApprovalSecretError);
    await expect(
      empty.harness.resumeDeferred(
        {},
        state as unknown as RunState,
        new DeferredToolResults().approve({ callId: 'c1' }),
      ),
    ).rejects.toSatisfy(ApprovalSecretError.isInstance);
    expect(empty.paid).toEqual([]);
    expect(() => payScenario({ approvalSecret: '' })).toThrow(InvalidInputError);
  });
});

describe('approvals bound to their policy, consumed once', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it.each<[string, { description?: string; maximum?: number }]>([
    ['description', { description: 'Pay anyone anything.' }],
    ['schema', { maximum: 5_000_000 }],
  ])('asks again (needs_reapproval) when the tool %s changed since the pause', async (_what, change) => {
    const first = payScenario();
    const paused = await first.harness.invoke({ runId: 'r' }, user('pay'));
    const changed = payScenario({}, change.description, change.maximum, true);
    const decisions = new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] });
    const again = await changed.harness.resumeDeferred({}, paused.state as RunState, decisions);
    expect(changed.paid).toEqual([]);
    expect(again.outcome).toBe('deferred');
    expect(again.deferred?.approvals.map((call) => call.reason)).toEqual(['needs_reapproval']);
    const approved = await changed.harness.resumeDeferred(
      {},
      again.state as RunState,
      new DeferredToolResults().approveAll(again.deferred ?? { approvals: [] }),
    );
    expect(approved.outcome).toBe('final');
    expect(changed.paid).toEqual(['pay:1000000']);
  });

  it('asks again for a paused call that carries no policy digest (a state from before this check)', async () => {
    const { harness, paid } = payScenario();
    const paused = await harness.invoke({ runId: 'r' }, user('pay'));
    const state = JSON.parse(JSON.stringify(paused.state)) as { pending: { approvals: Record<string, unknown>[] } };
    const approval = state.pending.approvals[0] as Record<string, unknown>;
    delete approval.policy;
    approval.digest = approvalDigest({ runId: 'r', callId: 'c1', toolName: 'pay', arguments: { cents: 1_000_000 } });
    const run = await harness.resumeDeferred(
      {},
      state as unknown as RunState,
      new DeferredToolResults().approve({ callId: 'c1' }),
    );
    expect(run.deferred?.approvals[0]?.reason).toBe('needs_reapproval');
    expect(paid).toEqual([]);
  });

  it.each(['memory', 'file'] as const)(
    'two harnesses resuming one saved state through a shared %s store run the tool once',
    async (kind) => {
      const dir = mkdtempSync(join(tmpdir(), 'tiny-claims-'));
      dirs.push(dir);
      const store = kind === 'memory' ? new InMemoryCheckpointStore() : createFileCheckpointStore(dir);
      const paid: string[] = [];
      const origin = payScenario();
      const paused = await origin.harness.invoke({ runId: 'r' }, user('pay'));
      const saved = JSON.stringify(paused.state);
      const decisions = () => new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] });
      const outcomes = await Promise.allSettled(
        [0, 1].map(async () => {
          const copy = payScenario({ resumeClaims: store });
          try {
            return await copy.harness.resumeDeferred({}, saved, decisions());
          } finally {
            paid.push(...copy.paid);
          }
        }),
      );
      expect(paid).toEqual(['pay:1000000']);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(
        refused?.status === 'rejected' && DeferredResolutionError.isInstance(refused.reason) && refused.reason.problem,
      ).toBe('already_resumed');
    },
  );

  it('refuses a second resume in the same harness even with a ledger when claims are given', async () => {
    const { harness, paid } = payScenario({
      ledger: new InMemoryToolEffectLedger(),
      resumeClaims: new InMemoryCheckpointStore(),
    });
    const paused = await harness.invoke({ runId: 'r' }, user('pay'));
    const decisions = new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] });
    await harness.resumeDeferred({}, paused.state as RunState, decisions);
    await expect(harness.resumeDeferred({}, paused.state as RunState, decisions)).rejects.toSatisfy(
      DeferredResolutionError.isInstance,
    );
    expect(paid).toEqual(['pay:1000000']);
  });

  it('refuses a resumeClaims without claimResume', () => {
    expect(() => payScenario({ resumeClaims: {} as never })).toThrow(InvalidInputError);
  });
});

describe('nested calls and bare approved ids', () => {
  it('a bare id in approvedCalls that spells a nested id approves nothing nested', async () => {
    const effects: string[] = [];
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', {}, 'x')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [refundTool(effects), runnerTool([['refund', { cents: 100_000 }]])],
    });
    const run = await harness.invoke({ runId: 'r' }, user('go'), { approvedCalls: ['x/1'] });
    expect(effects).toEqual([]);
    expect(answerOf(run.messages, 'x')).toMatch(/refused: .*approval_required/);
  });
});

describe('approval middleware on nested calls', () => {
  it('HumanApprovalMiddleware refuses a nested call whose id a bare approvedCalls entry spells', async () => {
    const effects: string[] = [];
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', {}, 'x')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [refundTool(effects, false), runnerTool([['refund', { cents: 100_000 }]])],
      middleware: [new HumanApprovalMiddleware({ requireFor: ['refund'] })],
    });
    const run = await harness.invoke({ runId: 'r' }, user('go'), { approvedCalls: ['x/1'] });
    expect(effects).toEqual([]);
    expect(answerOf(run.messages, 'x')).toMatch(/refused: .*approval_required/);
  });
});

describe('approval keys are asked for when the run starts', () => {
  it('a key function giving no key fails the run before any call of a batch runs', async () => {
    const effects: string[] = [];
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('refund', { cents: 1 }, 'a')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({ model, tools: [refundTool(effects, false)], approvalSecret: () => '' });
    await expect(harness.invoke({ runId: 'r' }, user('go'))).rejects.toSatisfy(ApprovalSecretError.isInstance);
    expect(effects).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});

describe('context.approved', () => {
  it('is false for a nested call whose id a bare approvedCalls entry spells', async () => {
    const seen: boolean[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Report whether the call counts as approved.',
      parameters: Type.Object({}),
      execute: (_args, context) => {
        seen.push(context.approved === true);
        return 'ok';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', {}, 'x')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({ model, tools: [probe, runnerTool([['probe', {}]])] });
    await harness.invoke({ runId: 'r' }, user('go'), { approvedCalls: ['x/1'] });
    expect(seen).toEqual([false]);
  });
});
