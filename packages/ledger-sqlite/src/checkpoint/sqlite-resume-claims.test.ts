import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentHarness, DeferredResolutionError, DeferredToolResults, type RunState } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, InvalidInputError, ToolPolicy } from '@tiny/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteToolEffectLedger } from '../ledger/sqlite-tool-effect-ledger.js';
import { RESUME_CLAIM_TABLE, SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tiny-claims-sqlite-'));
  path = join(dir, 'agent.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function smsHarness(
  steps: ConstructorParameters<typeof ScriptedModel>[0]['steps'],
  sent: string[],
  store: SqliteCheckpointStore,
) {
  const sendSms = defineTool({
    name: 'send_sms',
    description: 'Send a text message.',
    parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    policy: ToolPolicy.classified().withSideEffects({ network: true }).requiringApproval(),
    execute: (args: { to: string }) => {
      sent.push(args.to);
      return 'sent';
    },
  });
  return new AgentHarness({ model: new ScriptedModel({ steps }), tools: [sendSms], resumeClaims: store });
}

describe('SqliteCheckpointStore.claimResume', () => {
  it('grants a claim once across connections to one database', async () => {
    const first = new SqliteCheckpointStore({ path });
    const second = new SqliteCheckpointStore({ path });
    expect(await first.claimResume('r1', 'k')).toBe(true);
    expect(await second.claimResume('r1', 'k')).toBe(false);
    expect(await second.claimResume('r1', 'other')).toBe(true);
    expect(await first.claimResume('r2', 'k')).toBe(true);
    await first.delete('r1');
    expect(await first.claimResume('r1', 'k')).toBe(false);
    await expect(first.claimResume('r1', '')).rejects.toThrow(InvalidInputError);
    await first.close();
    await second.close();
  });

  it("works on a ledger's shared connection, in the ledger's file", async () => {
    const ledger = new SqliteToolEffectLedger({ path });
    expect(await ledger.checkpointStore().claimResume('r', 'k')).toBe(true);
    const other = new SqliteCheckpointStore({ path, mode: 'open' });
    expect(await other.claimResume('r', 'k')).toBe(false);
    expect(RESUME_CLAIM_TABLE).toBe('tiny_resume_claims');
    await other.close();
    await ledger.close();
  });

  it('two harnesses resuming one saved state through two connections send one SMS', async () => {
    const sent: string[] = [];
    const origin = new SqliteCheckpointStore({ path });
    const paused = await smsHarness(
      [{ toolCalls: [scriptedToolCall('send_sms', { to: '+100' }, 'c1')] }],
      sent,
      origin,
    ).invoke({ runId: 'run-1' }, 'text Ada');
    await origin.save(paused.state as RunState);
    const decisions = new DeferredToolResults().approveAll(paused.deferred ?? { approvals: [] });
    const stores = [new SqliteCheckpointStore({ path }), new SqliteCheckpointStore({ path })];
    const outcomes = await Promise.allSettled(
      stores.map(async (store) => {
        const saved = (await store.load('run-1')) as RunState;
        return smsHarness([{ content: 'Sent.' }], sent, store).resumeDeferred({}, saved, decisions);
      }),
    );
    expect(sent).toEqual(['+100']);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(
      refused[0]?.status === 'rejected' &&
        DeferredResolutionError.isInstance(refused[0].reason) &&
        refused[0].reason.problem,
    ).toBe('already_resumed');
    for (const store of [origin, ...stores]) await store.close();
  });
});
