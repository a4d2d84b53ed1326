import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness, type AgentHarnessOptions } from '../agent/agent-harness.js';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { ScriptedModel, type ScriptedStep, scriptedToolCall } from '../testkit/index.js';
import { toolSetFromTools } from '../toolsets/tool-set-from-tools.js';
import { HumanApprovalMiddleware } from './human-approval-middleware.js';
import { ToolPolicyMiddleware } from './tool-policy-middleware.js';

const user = [{ role: 'user' as const, content: 'go' }];

function payTool(paid: string[], extra: { approval?: boolean; sandbox?: boolean; injected?: boolean } = {}) {
  let policy = ToolPolicy.classified().withSideEffects({ payment: true });
  if (extra.approval) policy = policy.requiringApproval();
  if (extra.sandbox) policy = policy.withRuntime({ sandbox: 'required' });
  return defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: extra.injected
      ? Type.Object({ to: Type.String(), cents: Type.Integer(), account: Type.String() })
      : Type.Object({ to: Type.String(), cents: Type.Integer() }),
    ...(extra.injected ? { injected: [{ name: 'account', source: 'host' as const }] } : {}),
    policy,
    execute: ({ to, cents }: { to: string; cents: number }) => {
      paid.push(`${to}:${cents}`);
      return 'paid';
    },
  });
}

const model = (steps: ScriptedStep[]) => new ScriptedModel({ steps });
const payCall = (name = 'pay') => ({ toolCalls: [scriptedToolCall(name, { to: 'x', cents: 5 }, 'c1')] });

describe('ToolPolicyMiddleware sees toolset tools', () => {
  it('defers a toolset tool named by requireApproval, like a registry tool', async () => {
    const paid: string[] = [];
    const harness = new AgentHarness({
      model: model([payCall(), { content: 'done' }]),
      toolSets: [toolSetFromTools([payTool(paid)])],
      middleware: [new ToolPolicyMiddleware().requireApproval(['pay'])],
    });
    const run = await harness.invoke({ runId: 'r' }, user);
    expect(run.outcome).toBe('deferred');
    expect(paid).toEqual([]);
  });

  it('denies a toolset tool by its declared policy', async () => {
    const paid: string[] = [];
    const harness = new AgentHarness({
      model: model([payCall(), { content: 'done' }]),
      toolSets: [toolSetFromTools([payTool(paid)])],
      middleware: [new ToolPolicyMiddleware().denySideEffects({ payment: true })],
    });
    await harness.invoke({ runId: 'r' }, user);
    expect(paid).toEqual([]);
  });
});

describe('unknownTool rewrite happens before the gates', () => {
  it.each([
    ['human', () => new HumanApprovalMiddleware({ requireFor: ['pay'] })],
    ['policy', () => new ToolPolicyMiddleware().requireApproval(['pay'])],
  ] as const)(
    'a call to an unknown name rewritten to pay meets the %s gate on pay, and the approval names pay',
    async (_what, gate) => {
      const paid: string[] = [];
      const options: Omit<AgentHarnessOptions, 'model'> = {
        tools: [payTool(paid)],
        middleware: [gate()],
        policy: { unknownTool: { kind: 'rewrite', toolName: 'pay' } },
      };
      const run = await new AgentHarness({ model: model([payCall('pay_now')]), ...options }).invoke(
        { runId: 'r' },
        user,
      );
      expect(run.outcome).toBe('deferred');
      expect(run.deferred?.approvals.map((approval) => approval.toolName)).toEqual(['pay']);
      expect(paid).toEqual([]);
    },
  );
});

describe('policy changes between pause and resume', () => {
  async function pausedThenResumed(resumeOptions: Omit<AgentHarnessOptions, 'model'>, pauseOptions = resumeOptions) {
    const first = new AgentHarness({ model: model([payCall()]), ...pauseOptions });
    const paused = await first.invoke({ runId: 'r', hostValues: { account: 'a' } }, user);
    expect(paused.outcome).toBe('deferred');
    const second = new AgentHarness({ model: model([{ content: 'done' }, { content: 'done' }]), ...resumeOptions });
    return second.resumeDeferred(
      { hostValues: { account: 'a' } },
      JSON.parse(JSON.stringify(paused.state)),
      new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] }),
    );
  }

  it('a HumanApprovalMiddleware that now denies wins over the earlier approval', async () => {
    const paid: string[] = [];
    const done = await pausedThenResumed(
      {
        tools: [payTool(paid)],
        middleware: [new HumanApprovalMiddleware({ requireFor: ['pay'], outcome: () => ({ deny: 'pay is frozen' }) })],
      },
      { tools: [payTool(paid)], middleware: [new HumanApprovalMiddleware({ requireFor: ['pay'] })] },
    );
    expect(paid).toEqual([]);
    expect(JSON.stringify(done.messages)).toContain('pay is frozen');
  });

  it('an approved call still runs when the middleware still only defers', async () => {
    const paid: string[] = [];
    const options = { tools: [payTool(paid)], middleware: [new HumanApprovalMiddleware({ requireFor: ['pay'] })] };
    await pausedThenResumed(options);
    expect(paid).toEqual(['x:5']);
  });

  it.each([
    ['a sandbox requirement', { approval: true, sandbox: true }],
    ['a host-injected argument', { approval: true, injected: true }],
  ])('adding %s asks again (needs_reapproval) instead of running', async (_what, changed) => {
    const paid: string[] = [];
    const done = await pausedThenResumed(
      { tools: [payTool(paid, changed)] },
      { tools: [payTool(paid, { approval: true })] },
    );
    expect(paid).toEqual([]);
    expect(done.outcome).toBe('deferred');
    expect(done.deferred?.approvals[0]?.reason).toBe('needs_reapproval');
  });
});
