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
}
