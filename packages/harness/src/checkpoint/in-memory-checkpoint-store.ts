import { InvalidInputError } from '@tiny/tools';
import { parseRunState, type RunState, serializeCheckedRunState } from '../deferral/run-state.js';
import { CheckpointUnreadableError } from '../errors/checkpoint-unreadable-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { CheckpointStore } from './checkpoint-store.js';

/**
 * A {@link CheckpointStore} in process memory, for tests and for hosts that only pause and resume
 * within one process. States are kept serialised, so a later change to a saved object changes
 * nothing stored and `load` validates like the durable stores do.
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  private readonly states = new Map<string, string>();
  private readonly claims = new Set<string>();

  async save(state: RunState): Promise<void> {
    const { runId, text } = checkpointText('InMemoryCheckpointStore.save', state);
    this.states.set(runId, text);
  }

  async load(runId: string): Promise<RunState | undefined> {
    const text = this.states.get(checkedRunId('InMemoryCheckpointStore.load', runId));
    if (text === undefined) return undefined;
    return readRunState(text, runId, 'memory');
  }

  async list(): Promise<string[]> {
    return [...this.states.keys()].sort();
  }

  async delete(runId: string): Promise<void> {
    this.states.delete(checkedRunId('InMemoryCheckpointStore.delete', runId));
  }

  /** Consumes `claim` for `runId` (see `ResumeClaimStore`): `true` the first time, then `false`. */
  async claimResume(runId: string, claim: string): Promise<boolean> {
    const key = `${checkedRunId('InMemoryCheckpointStore.claimResume', runId)}\u0000${checkedClaim('InMemoryCheckpointStore.claimResume', claim)}`;
    if (this.claims.has(key)) return false;
    this.claims.add(key);
    return true;
  }
}

/**
 * What a checkpoint store writes for `state`: its run id and its text, checked like `load` checks
 * it (`serializeRunState`), so a save never replaces a good checkpoint with one `load` refuses.
 * @throws {InvalidInputError} when the run id is not a non-empty string.
 * @throws {InvalidRunStateError} when the state cannot be serialised, is not a valid run state, or
 * serialises as the state of another run (a `toJSON` that writes another run id).
 * @internal
 */
export function checkpointText(entryPoint: string, state: RunState): { readonly runId: string; readonly text: string } {
  let claimed: unknown;
  try {
    claimed = (state as { runId?: unknown } | null | undefined)?.runId;
  } catch (error) {
    throw new InvalidRunStateError({ reason: `its run id cannot be read (${String(error)})`, cause: error });
  }
  const runId = checkedRunId(entryPoint, claimed);
  const written = serializeCheckedRunState(state);
  if (written.state.runId !== runId) {
    throw new InvalidRunStateError({
      reason: `it names run "${runId}" but serialises as the state of run "${written.state.runId}"`,
    });
  }
  return { runId, text: written.text };
}

/**
 * The claim a checkpoint store was given, or an {@link InvalidInputError}: a non-empty string.
 * @internal
 */
export function checkedClaim(entryPoint: string, claim: unknown): string {
  if (typeof claim !== 'string' || claim.length === 0) {
    throw new InvalidInputError({ entryPoint, reason: `the claim must be a non-empty string, got ${describe(claim)}` });
  }
  return claim;
}

/**
 * The run id a checkpoint store was given, or an {@link InvalidInputError}: a non-empty string.
 * @internal
 */
export function checkedRunId(entryPoint: string, runId: unknown): string {
  if (typeof runId !== 'string' || runId.length === 0) {
    throw new InvalidInputError({
      entryPoint,
      reason: `the run id must be a non-empty string, got ${describe(runId)}`,
    });
  }
  return runId;
}

/**
 * Parses stored checkpoint text for `runId`, or throws {@link CheckpointUnreadableError}: for the
 * stores of this package and `@tiny/ledger-sqlite`.
 * @internal
 */
export function readRunState(text: string, runId: string, location: string): RunState {
  let state: RunState;
  try {
    state = parseRunState(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CheckpointUnreadableError({ runId, location, reason, cause: error });
  }
  if (state.runId !== runId) {
    throw new CheckpointUnreadableError({
      runId,
      location,
      reason: `it holds the state of run "${state.runId}"`,
    });
  }
  return state;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? 'an empty string' : value === null ? 'null' : typeof value;
}
