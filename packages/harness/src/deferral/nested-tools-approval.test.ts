import { defineTool, type Tool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { approvalPolicyDigest } from './approval-digest.js';
import { DeferredToolResults } from './deferred-tool-results.js';

const SECRET = 'a-very-long-host-secret-0123456789';

function helper(log: string[], description = 'Looks something up.', name = 'helper') {
  return defineTool({
    name,
    description,
    parameters: Type.Object({}),
    policy: ToolPolicy.readOnly(),
    execute: () => {
      log.push(`${name}:${description}`);
      return 'ok';
    },
  });
}

function parent(log: string[], nestedTools: readonly Tool<never>[]) {
  return defineTool({
    name: 'parent',
    description: 'Calls its helper.',
    parameters: Type.Object({}),
    policy: ToolPolicy.classified().requiringApproval(),
    nestedTools,
    execute: async (_args, context) => {
      log.push('parent');
      if (context.callTool === undefined) throw new Error('expected nested calls to be available');
      return (await context.callTool('helper', {})).output();
    },
  });
}

async function resumeWith(before: Tool<never>, after: Tool<never>) {
  const first = new AgentHarness({
    model: new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'c1')] }] }),
    tools: [before],
    approvalSecret: SECRET,
  });
  const run = await first.invoke({ runId: 'r' }, 'go');
  expect(run.outcome).toBe('deferred');
  const second = new AgentHarness({
    model: new ScriptedModel({ steps: [{ content: 'done' }] }),
    tools: [after],
    approvalSecret: SECRET,
  });
  return second.resumeDeferred(
    {},
    JSON.stringify(run.state),
    new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] }),
  );
}

describe('an approval binds the declared nestedTools of the approved tool', () => {
  it('a helper whose definition changed between pause and resume asks again instead of running', async () => {
    const log: string[] = [];
    const resumed = await resumeWith(
      parent(log, [helper(log, 'Looks something up.')]),
      parent(log, [helper(log, 'Sends all the money away.')]),
    );
    expect(resumed.outcome).toBe('deferred');
    expect(resumed.deferred?.approvals[0]?.reason).toBe('needs_reapproval');
    expect(log).toEqual([]);
  });

  it('a helper added or removed between pause and resume asks again', async () => {
    const log: string[] = [];
    const added = await resumeWith(parent(log, [helper(log)]), parent(log, [helper(log), helper(log, 'x', 'extra')]));
    expect(added.deferred?.approvals[0]?.reason).toBe('needs_reapproval');
    const removed = await resumeWith(parent(log, [helper(log)]), parent(log, []));
    expect(removed.deferred?.approvals[0]?.reason).toBe('needs_reapproval');
    expect(log).toEqual([]);
  });

  it('the same helpers in another order keep the approval', async () => {
    const log: string[] = [];
    const resumed = await resumeWith(
      parent(log, [helper(log), helper(log, 'x', 'extra')]),
      parent(log, [helper(log, 'x', 'extra'), helper(log)]),
    );
    expect(resumed.outcome).toBe('final');
    expect(log).toEqual(['parent', 'helper:Looks something up.']);
  });

  it('reads nested helpers recursively and survives cycles', () => {
    const leaf = (description: string) => ({ name: 'leaf', description });
    const digest = (description: string) =>
      approvalPolicyDigest({ name: 'p', nestedTools: [{ name: 'mid', nestedTools: [leaf(description)] }] });
    expect(digest('a')).not.toBe(digest('b'));
    expect(digest('a')).toBe(digest('a'));
    type Node = { name: string; description: string; nestedTools: Node[] };
    const a: Node = { name: 'a', description: 'A', nestedTools: [] };
    const b: Node = { name: 'b', description: 'B', nestedTools: [a] };
    a.nestedTools.push(b, a);
    const before = approvalPolicyDigest(a);
    expect(before).toMatch(/^policy-sha256:/);
    b.description = 'B2';
    expect(approvalPolicyDigest(a)).not.toBe(before);
  });

  it('a tool without nestedTools keeps the digest it had before nested tools counted', () => {
    expect(approvalPolicyDigest({ name: 't', description: 'd', nestedTools: [] })).toBe(
      approvalPolicyDigest({ name: 't', description: 'd' }),
    );
  });
});
