import { InvalidInputError } from '@tiny/tools';
import { parseRunState, type RunState, serializeRunState } from '../deferral/run-state.js';
import { CheckpointUnreadableError } from '../errors/checkpoint-unreadable-error.js';
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
    this.states.set(checkedRunId('InMemoryCheckpointStore.save', state?.runId), serializeRunState(state));
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
