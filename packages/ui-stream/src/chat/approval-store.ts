import { InvalidInputError, type RunState } from '@tiny/harness';

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
  /** The conversation the run belongs to (`useChat`'s chat `id`, AG-UI's `threadId`), when known. */
  readonly conversationId?: string | undefined;
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
  /**
   * Removes every paused run of a conversation (a new user turn there voids them). A store without
   * it voids only the runs whose approval ids the client echoes back.
   */
  voidConversation?(conversationId: string): void | Promise<void>;
}

/** Options of {@link InMemoryApprovalStore}. */
export interface InMemoryApprovalStoreOptions {
  /** How many paused runs are kept at most (default 1000); saving one more forgets the oldest. */
  readonly maxRuns?: number | undefined;
  /**
   * How long a paused run's approvals stay valid after it was saved, in milliseconds (default
   * 15 minutes): an answer arriving later finds nothing (`unknown_approval`), and nothing runs.
   */
  readonly approvalTtlMs?: number | undefined;
  /** The clock, in milliseconds (default `Date.now`); tests pass their own. */
  readonly now?: (() => number) | undefined;
}

/** The default {@link InMemoryApprovalStoreOptions.approvalTtlMs}: 15 minutes. */
export const DEFAULT_APPROVAL_TTL_MS = 15 * 60 * 1000;

function positive(name: string, value: number, integer: boolean): number {
  if (!(integer ? Number.isInteger(value) : Number.isFinite(value)) || value < 1)
    throw new InvalidInputError({
      entryPoint: 'InMemoryApprovalStore',
      reason: `\`${name}\` must be ${integer ? 'an integer' : 'a finite number'} of at least 1, got ${String(value)}`,
    });
  return value;
}

/**
 * An {@link ApprovalStateStore} in this process's memory (lost on restart; one process only). It
 * keeps at most `maxRuns` paused runs (default 1000): saving one more forgets the oldest, whose
 * approvals then answer `unknown_approval`, so clients that never decide cannot grow it without
 * bound. A paused run expires `approvalTtlMs` after it was saved (default 15 minutes): a late
 * answer finds nothing.
 */
export class InMemoryApprovalStore implements ApprovalStateStore {
  private readonly runs = new Map<string, { readonly paused: PausedRun; readonly expiresAt: number }>();
  private readonly byApproval = new Map<string, string>();
  private readonly maxRuns: number;
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(options: InMemoryApprovalStoreOptions = {}) {
    this.maxRuns = positive('maxRuns', options.maxRuns ?? 1000, true);
    this.ttl = positive('approvalTtlMs', options.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS, false);
    this.now = options.now ?? Date.now;
  }

  save(paused: PausedRun): void {
    this.take(paused.runId);
    while (this.runs.size >= this.maxRuns) {
      const oldest = this.runs.keys().next().value as string;
      this.take(oldest);
    }
    this.runs.set(paused.runId, { paused, expiresAt: this.now() + this.ttl });
    for (const approval of paused.approvals) this.byApproval.set(approval.approvalId, paused.runId);
  }

  get(approvalId: string): PausedRun | undefined {
    const runId = this.byApproval.get(approvalId);
    return runId === undefined ? undefined : this.live(runId);
  }

  take(runId: string): PausedRun | undefined {
    const entry = this.runs.get(runId);
    if (entry === undefined) return undefined;
    this.runs.delete(runId);
    for (const approval of entry.paused.approvals) this.byApproval.delete(approval.approvalId);
    return this.now() < entry.expiresAt ? entry.paused : undefined;
  }

  voidConversation(conversationId: string): void {
    for (const [runId, entry] of [...this.runs]) if (entry.paused.conversationId === conversationId) this.take(runId);
  }

  /** The paused run `runId`, or `undefined` when it is unknown or expired (an expired one is forgotten). */
  private live(runId: string): PausedRun | undefined {
    const entry = this.runs.get(runId);
    if (entry === undefined) return undefined;
    if (this.now() < entry.expiresAt) return entry.paused;
    this.take(runId);
    return undefined;
  }

  /** How many paused runs wait. */
  get size(): number {
    return this.runs.size;
  }
}
