/**
 * How a recorded call ended: `started` (written before the tool runs; still so after a crash),
 * `completed` (the tool returned, error results included), `failed` (it threw), `interrupted`
 * (settled by a resume that could not know the outcome: the effect may or may not have happened,
 * never "done").
 */
export type EffectStatus = 'started' | 'completed' | 'failed' | 'interrupted';

/** The row written before a tool executes. */
export interface EffectStarted {
  readonly runId: string;
  readonly callId: string;
  /** The canonical tool name. */
  readonly tool: string;
  /** The tool's declared key, the host rule's, or `defaultIdempotencyKey` (run id, call id, tool name, model-visible arguments). */
  readonly idempotencyKey: string;
  /** A short, secret-free description of the intended effect, when the host provides one. */
  readonly effectSummary?: string | undefined;
}

/** The update written after a tool returned (`completed`, error results included), threw (`failed`), or was reconciled (`interrupted`). */
export interface EffectSettled {
  readonly runId: string;
  readonly callId: string;
  readonly status: Exclude<EffectStatus, 'started'>;
  readonly effectSummary?: string | undefined;
}

/** One ledger row. */
export interface EffectRecord extends EffectStarted {
  readonly status: EffectStatus;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly settledAt?: number | undefined;
}

/**
 * Durable bookkeeping of tool side effects: a `started` row is written (and durable) **before** a
 * tool executes and settled after, so a run resumed after a crash knows which effects may have
 * happened. Implementations must make `started` an atomic claim per `(runId, callId)`: the first
 * write creates the row and resolves `true`; any later one for the same call (a second resume of
 * the same paused state, in this process or another sharing the ledger) creates nothing and
 * resolves `false`, and the harness then does not run the call (unless its tool is replay-safe).
 * A ledger whose `started` resolves `undefined` (the older contract) gives no such guarantee: the
 * harness runs the call. Keep rows from several processes apart.
 *
 * Settle rules: `started` may move to any final status; `completed` and `failed` are final;
 * `interrupted` may only be replaced by a late `completed` or `failed` (the real outcome, from a
 * process that was presumed dead), so an earlier resume's guess never hides or fakes an outcome.
 */
export interface ToolEffectLedger {
  /**
   * Records an intended effect; must be durable when the promise resolves. Resolves `true` when this
   * call wrote the row, `false` when the call already had one (it must not run again).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: ledgers written to the older contract resolve `void`.
  started(row: EffectStarted): Promise<boolean | undefined | void>;
  /** Settles a started row. */
  settled(row: EffectSettled): Promise<void>;
  /** Rows of `runId` still `started`, oldest first. */
  unresolved(runId: string): Promise<EffectRecord[]>;
  /**
   * Every row of `runId`. Optional: with it, reconciliation also catches calls that finished
   * before a crash but whose result never reached the transcript (they are not run again unless
   * replay-safe), and settles the rows it answers `interrupted`. Without it, those rows stay
   * `started` (only `unresolved` can be asked), and a call that completed before the crash runs again.
   */
  rows?(runId: string): EffectRecord[] | Promise<EffectRecord[]>;
}

/** What to do when the `started` write fails: fail the call (default, nothing runs unrecorded) or run it unrecorded with an event. */
export type LedgerFailureMode = 'abort' | 'continue';

/**
 * How a host derives idempotency keys for calls whose tool declares none, e.g. from the run and
 * call ids so keys stay stable when a durable engine replays a run. `arguments` are the
 * model-visible arguments: host-injected values are removed before the rule sees them.
 */
export type IdempotencyKeyRule = (call: {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}) => string;
