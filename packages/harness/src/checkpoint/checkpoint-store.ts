import type { RunState } from '../deferral/run-state.js';

/**
 * Durable storage of run states, one per run id: the way to persist `onCheckpoint` states (and
 * paused `run.state`s) so a run can be resumed after a crash. Implementations must make `save`
 * atomic (a reader sees the previous state or the new one, never a torn mix) and durable when its
 * promise resolves, since the harness runs the batch's tools right after the checkpoint.
 *
 * ```ts
 * const run = await harness.invoke(context, messages, { onCheckpoint: (state) => store.save(state) });
 * // after a crash, in any process:
 * const saved = await store.load(runId);
 * if (saved !== undefined) await harness.resume(context, saved, { onCheckpoint: (state) => store.save(state) });
 * ```
 *
 * Shipped: `createFileCheckpointStore(dir)` from `@tiny/harness/node`, `SqliteCheckpointStore` from
 * `@tiny/ledger-sqlite` (next to the ledger), and `InMemoryCheckpointStore` for tests.
 */
export interface CheckpointStore {
  /** Replaces the stored state of `state.runId`; atomic, and durable when the promise resolves. */
  save(state: RunState): Promise<void>;
  /**
   * The stored state of `runId`, validated with `parseRunState`; `undefined` when none is stored.
   * @throws {CheckpointUnreadableError} (as a rejection) when stored data cannot be read back.
   */
  load(runId: string): Promise<RunState | undefined>;
  /** The run ids with a stored state, sorted. */
  list(): Promise<string[]>;
  /** Removes the state of `runId`, for example once the run finished; nothing stored is not an error. */
  delete(runId: string): Promise<void>;
  /** See {@link ResumeClaimStore}; the shipped stores all implement it. */
  claimResume?(runId: string, claim: string): Promise<boolean>;
}

/**
 * Where a paused state's resume is consumed, once, across processes (`AgentHarnessOptions.resumeClaims`).
 * The harness calls `claimResume` after the decisions are checked and before any resumed call
 * starts; the first caller for a `(runId, claim)` pair gets `true`, every later one (in any process
 * sharing the store) `false`, and that resume is refused (`DeferredResolutionError`, `already_resumed`).
 * Claims are never removed, not even by `delete`. `InMemoryCheckpointStore` (one process),
 * `createFileCheckpointStore` (exclusive create of a claim file) and `SqliteCheckpointStore` (a unique
 * row) implement it.
 */
export interface ResumeClaimStore {
  /**
   * Records the claim atomically; `true` when this call made it, `false` when it was already there.
   * Durable when the promise resolves (a crash after it leaves the claim in place: the resumed
   * calls then never run, rather than twice).
   */
  claimResume(runId: string, claim: string): Promise<boolean>;
}
