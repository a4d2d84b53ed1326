import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentHarness, DeferredToolResults, type RunState } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteToolEffectLedger } from './sqlite-tool-effect-ledger.js';

const dir = mkdtempSync(join(tmpdir(), 'tiny-ledger-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function harness(paid: string[], path: string) {
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone.',
    parameters: { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] },
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ cents }: { cents: number }) => {
      paid.push(`pay:${cents}`);
      return 'paid';
    },
  });
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('pay', { cents: 5 }, 'c1')] }, { content: 'done' }],
    repeatLast: true,
  });
  const ledger = new SqliteToolEffectLedger({ path });
  return { harness: new AgentHarness({ model, tools: [pay], ledger }), ledger };
}

describe('started is an atomic claim', () => {
  it('resolves true for the first start of a call and false for any later one, across connections', async () => {
    const path = join(dir, 'claim.db');
    const a = new SqliteToolEffectLedger({ path });
    const b = new SqliteToolEffectLedger({ path });
    const row = { runId: 'r', callId: 'c1', tool: 'pay', idempotencyKey: 'k' };
    expect(await a.started(row)).toBe(true);
    expect(await b.started(row)).toBe(false);
    expect(await a.started(row)).toBe(false);
    a.close();
    b.close();
  });

  it('two harnesses sharing the ledger file resume one paused state: the approved call runs once', async () => {
    const path = join(dir, 'replay.db');
    const paid: string[] = [];
    const first = harness(paid, path);
    const run = await first.harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
    const state = JSON.parse(JSON.stringify(run.state)) as RunState;
    const decisions = new DeferredToolResults().approveAll(run.deferred ?? { approvals: [] });
    const second = harness(paid, path);
    await Promise.all([
      first.harness.resumeDeferred({}, state, decisions),
      second.harness.resumeDeferred({}, state, decisions),
    ]);
    // A third instance on the same file: the ledger's claim answers the call instead of running it.
    const third = harness(paid, path);
    await third.harness.resumeDeferred({}, state, decisions);
    // The same instance refuses a second decision on one state outright.
    await expect(second.harness.resumeDeferred({}, state, decisions)).rejects.toThrow('already resumed');
    expect(paid).toEqual(['pay:5']);
    first.ledger.close();
    second.ledger.close();
    third.ledger.close();
  });
});
