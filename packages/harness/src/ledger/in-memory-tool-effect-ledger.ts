import { checkedLedgerRunId, checkedSettledRow, checkedStartedRow } from './checked-effect-row.js';
import type { EffectRecord, EffectSettled, EffectStarted, ToolEffectLedger } from './tool-effect-ledger.js';

/**
 * A ledger in process memory: for tests and single-process hosts that only need the bookkeeping,
 * not crash safety. Rows are kept per run id; `rows(runId)` exposes them for assertions. Settles
 * follow the rules of {@link ToolEffectLedger} (a `completed` row never becomes `interrupted`).
 */
export class InMemoryToolEffectLedger implements ToolEffectLedger {
  private readonly byRun = new Map<string, Map<string, EffectRecord>>();

  /** Claims a call: `true` when this wrote its row, `false` when the call already had one (it must not run). */
  async started(input: EffectStarted): Promise<boolean> {
    const row = checkedStartedRow('InMemoryToolEffectLedger.started', input);
    let rows = this.byRun.get(row.runId);
    if (rows === undefined) {
      rows = new Map();
      this.byRun.set(row.runId, rows);
    }
    if (rows.has(row.callId)) return false;
    rows.set(row.callId, { ...row, status: 'started', startedAt: Date.now() });
    return true;
  }

  async settled(input: EffectSettled): Promise<void> {
    const row = checkedSettledRow('InMemoryToolEffectLedger.settled', input);
    const existing = this.byRun.get(row.runId)?.get(row.callId);
    if (existing === undefined) return;
    // The settle rules of `ToolEffectLedger`: final outcomes stay; `interrupted` yields only to one.
    const replaceable =
      existing.status === 'started' || (existing.status === 'interrupted' && row.status !== 'interrupted');
    if (!replaceable) return;
    this.byRun.get(row.runId)?.set(row.callId, {
      ...existing,
      status: row.status,
      settledAt: Date.now(),
      ...(row.effectSummary === undefined ? {} : { effectSummary: row.effectSummary }),
    });
  }

  async unresolved(runId: string): Promise<EffectRecord[]> {
    const id = checkedLedgerRunId('InMemoryToolEffectLedger.unresolved', runId);
    return [...(this.byRun.get(id)?.values() ?? [])].filter((row) => row.status === 'started');
  }

  /** Every row of a run, in the order calls started. @throws {InvalidInputError} (synchronously) when `runId` is not a non-empty string. */
  rows(runId: string): EffectRecord[] {
    const id = checkedLedgerRunId('InMemoryToolEffectLedger.rows', runId);
    return [...(this.byRun.get(id)?.values() ?? [])];
  }
}
