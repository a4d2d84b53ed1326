import type { RunState } from '@tiny/harness';

/** One approval the stream asked the client for: the id it sent, and the call it stands for. */
export interface IssuedApproval {
  /** A random id minted by the server (`tool-approval-request.approvalId`); the client answers by it. */
  readonly approvalId: string;
  readonly toolCallId: string;
}

/**
 * A run paused for approval, as the server keeps it: the harness's state (its pending calls carry
 * the harness's approval digests, HMACs with its `approvalSecret`) and the approval ids sent to the
 * client. The state never leaves the server; the client only ever holds approval ids.
 */
export interface PausedRun {
  readonly runId: string;
  readonly state: RunState;
  readonly approvals: readonly IssuedApproval[];
  /** The id of the assistant message the approval requests were streamed into. */
  readonly messageId?: string | undefined;
}

/**
 * Where paused runs wait for the client's approval responses, keyed by approval id. `take` must
 * hand a paused run out at most once (remove it, atomically where the store is shared), so a
 * replayed response finds nothing. Implement it over Redis or SQL to resume in another process.
 */
export interface ApprovalStateStore {
  /** Keeps a paused run; each of its approval ids finds it. */
  save(paused: PausedRun): void | Promise<void>;
  /** The paused run an approval id belongs to, without consuming it. */
  get(approvalId: string): PausedRun | undefined | Promise<PausedRun | undefined>;
  /** Removes the paused run (every approval id of it) and returns it; `undefined` when already taken. */
  take(runId: string): PausedRun | undefined | Promise<PausedRun | undefined>;
}

/** An {@link ApprovalStateStore} in this process's memory (lost on restart; one process only). */
export class InMemoryApprovalStore implements ApprovalStateStore {
  private readonly runs = new Map<string, PausedRun>();
  private readonly byApproval = new Map<string, string>();

  save(paused: PausedRun): void {
    this.take(paused.runId);
    this.runs.set(paused.runId, paused);
    for (const approval of paused.approvals) this.byApproval.set(approval.approvalId, paused.runId);
  }

  get(approvalId: string): PausedRun | undefined {
    const runId = this.byApproval.get(approvalId);
    return runId === undefined ? undefined : this.runs.get(runId);
  }

  take(runId: string): PausedRun | undefined {
    const paused = this.runs.get(runId);
    if (paused === undefined) return undefined;
    this.runs.delete(runId);
    for (const approval of paused.approvals) this.byApproval.delete(approval.approvalId);
    return paused;
  }

  /** How many paused runs wait. */
  get size(): number {
    return this.runs.size;
  }
}
