import type { Admission } from '../admission/admission.js';
import { callFormatFields } from '../agent/call-format.js';
import type { LoopState } from '../agent/loop-state.js';
import {
  type CallOutcome,
  executeCall,
  HEARD,
  hearNextCall,
  type NestedCallRunner,
  type OutcomeHearer,
} from './execute-call.js';
import { redactionOf, redactValue } from './redaction.js';

type Executable = Extract<Admission, { kind: 'execute' }>;

const ignore = (): void => undefined;

/**
 * Whether a batch runs concurrently: two or more calls to execute, `maxConcurrency` above 1, no
 * wrap-tool middleware, and every call reporting `isConcurrencySafe(args)`. Otherwise calls run one at a time in call order.
 * @internal
 */
export function runsConcurrently(
  state: LoopState,
  admissions: readonly Admission[],
  indexes: readonly number[],
): boolean {
  if (indexes.length < 2 || state.policy.maxConcurrency <= 1 || state.wrapsTools) return false;
  for (let at = 0; at < indexes.length; at += 1) {
    const admission = admissions[indexes[at] as number] as Executable;
    if (!concurrencySafe(admission)) return false;
  }
  return true;
}

/**
 * The tool's `isConcurrencySafe` for the call; a throw counts as not safe (the batch runs one call at
 * a time). What it threw is dropped, never reported: the hook reads the call's arguments, host
 * values and sensitive fields included, so its error may quote them.
 */
function concurrencySafe(admission: Executable): boolean {
  try {
    return admission.entry.tool.isConcurrencySafe(admission.args as never) === true;
  } catch {
    return false;
  }
}

function emitStarted(state: LoopState, admission: Executable, parentCallId?: string): void {
  if (!state.sink.active) return;
  const capture = state.policy.captureToolIo;
  const callId = admission.call.id;
  const toolName = admission.entry.name;
  if (!capture && parentCallId === undefined) {
    // The common event written out field by field (no object spread per call).
    const written = state.callFormats.get(callId);
    state.sink.emit(
      written === undefined
        ? { type: 'tool_started', callId, toolName }
        : { type: 'tool_started', callId, toolName, format: written.format, grammar: written.grammar },
    );
    return;
  }
  state.sink.emit({
    type: 'tool_started',
    callId,
    toolName,
    ...callFormatFields(state, callId),
    ...(capture ? { input: redactValue(admission.input, redactionOf(admission.entry.tool)) } : {}),
    ...(parentCallId === undefined ? {} : { parentCallId }),
  });
}

/**
 * Executes the admitted calls of a batch and returns their outcomes by admission index.
 * `tool_started` is emitted only now, after the whole batch was admitted: all at once before a
 * concurrent batch, or just before each call of a serial one. A serial batch stops at the first
 * fatal outcome (later calls never start); a concurrent one lets running siblings finish and starts
 * no other call (each one not started gets the fatal outcome, reported as discarded).
 * Calls start in call order; a synchronous tool settles as it starts, so a batch of them comes back
 * without a promise, and at most `maxConcurrency` asynchronous calls are in flight at once.
 * @internal
 */
export function executeBatch(
  state: LoopState,
  admissions: readonly Admission[],
  callTool: NestedCallRunner,
): Map<number, CallOutcome> | Promise<Map<number, CallOutcome>> {
  const indexes: number[] = [];
  for (let index = 0; index < admissions.length; index += 1)
    if (admissions[index]?.kind === 'execute') indexes.push(index);
  const batch: Batch = {
    state,
    admissions,
    indexes,
    callTool,
    outcomes: new Map(),
    next: 0,
    running: 0,
    done: ignore,
  };
  if (!runsConcurrently(state, admissions, indexes)) return runSerial(batch, 0);

  for (let at = 0; at < indexes.length; at += 1) emitStarted(state, admissions[indexes[at] as number] as Executable);
  for (let count = 0; count < state.policy.maxConcurrency; count += 1) if (!fillSlot(batch)) break;
  if (batch.running === 0) return batch.outcomes;
  opening = batch;
  const settled = new Promise<Map<number, CallOutcome>>(takeDone);
  opening = undefined;
  return settled;
}

/** The batch a `new Promise` is opened for: {@link takeDone}, its executor (not a closure per batch), stores the resolver in it. */
let opening: Batch | undefined;

function takeDone(resolve: (outcomes: Map<number, CallOutcome>) => void): void {
  (opening as Batch).done = resolve;
}

/**
 * A batch being executed: its admitted calls (`indexes` into `admissions`), the outcomes so far and,
 * for a concurrent batch, the next call to start. A plain object read by module-level functions
 * rather than closures made per batch (a full collection discards the optimised code of closures
 * once they die; see bench/README.md, issue 35).
 */
interface Batch {
  readonly state: LoopState;
  readonly admissions: readonly Admission[];
  readonly indexes: readonly number[];
  readonly callTool: NestedCallRunner;
  readonly outcomes: Map<number, CallOutcome>;
  next: number;
  /** Asynchronous calls of a concurrent batch still running. */
  running: number;
  /** Resolves a concurrent batch's promise once its last call settled. */
  done: (outcomes: Map<number, CallOutcome>) => void;
}

/**
 * Runs the call at `index`. What the harness runs around the tool may throw (a tool's
 * `idempotencyKey` or `timeoutPolicy`, the host's key function): that ends the call `fatal` like a
 * throw the tool-error policy fails, so every started call has an outcome and the batch never rejects.
 */
function runAt(batch: Batch, index: number): CallOutcome | Promise<CallOutcome> {
  const admission = batch.admissions[index] as Executable;
  try {
    return executeCall(batch.state, admission.call, admission.entry, admission.args, 0, batch.callTool);
  } catch (error) {
    return unexpected(error);
  }
}

/** The outcome of a call whose execution threw or rejected outside the tool-error policy (see {@link runAt}). */
function unexpected(error: unknown): CallOutcome {
  return { kind: 'fatal', error, startedAt: Date.now(), durationMs: 0 };
}

/** A serial batch from its `from`-th call: each starts after the previous one settled, none after a fatal outcome. */
function runSerial(batch: Batch, from: number): Map<number, CallOutcome> | Promise<Map<number, CallOutcome>> {
  for (let at = from; at < batch.indexes.length; at += 1) {
    const index = batch.indexes[at] as number;
    emitStarted(batch.state, batch.admissions[index] as Executable);
    const pending = runAt(batch, index);
    if (pending instanceof Promise) return continueSerial(batch, at, pending);
    batch.outcomes.set(index, pending);
    if (pending.kind === 'fatal') break;
  }
  return batch.outcomes;
}

async function continueSerial(
  batch: Batch,
  at: number,
  pending: Promise<CallOutcome>,
): Promise<Map<number, CallOutcome>> {
  let outcome: CallOutcome;
  try {
    outcome = await pending;
  } catch (error) {
    outcome = unexpected(error);
  }
  batch.outcomes.set(batch.indexes[at] as number, outcome);
  return outcome.kind === 'fatal' ? batch.outcomes : runSerial(batch, at + 1);
}

/**
 * One slot of a concurrent batch: starts calls in order until one is asynchronous (true: the slot
 * is taken) and, when that call settles, takes the next one. No async function or promise of its
 * own per call, and no `Promise.all`: the batch's promise settles when the last call does.
 */
function fillSlot(batch: Batch): boolean {
  while (batch.next < batch.indexes.length) {
    const index = batch.indexes[batch.next] as number;
    batch.next += 1;
    // A call that waits for its output tells the slot its outcome directly (no promise per call).
    hearNextCall(slotHeard as OutcomeHearer, batch.state, batch, index);
    const pending = runAt(batch, index);
    hearNextCall(undefined, undefined, undefined, 0);
    if (pending === HEARD) {
      batch.running += 1;
      return true;
    }
    if (pending instanceof Promise) {
      batch.running += 1;
      // Bound functions rather than closures: nothing per call to compile again after a full collection.
      pending.then(slotSettled.bind(undefined, batch, index), slotFailed.bind(undefined, batch, index));
      return true;
    }
    batch.outcomes.set(index, pending);
    if (pending.kind === 'fatal') halt(batch, pending);
  }
  return false;
}

/**
 * A call ended fatally: the run fails with the batch, so no other call starts (its side effects
 * would be for a run already lost). Each call not started gets `fatal` (after the failing call in
 * call order, it is reported as discarded: its `tool_started` was emitted with the batch's).
 */
function halt(batch: Batch, fatal: Extract<CallOutcome, { kind: 'fatal' }>): void {
  const now = Date.now();
  for (let at = batch.next; at < batch.indexes.length; at += 1)
    batch.outcomes.set(batch.indexes[at] as number, {
      kind: 'fatal',
      error: fatal.error,
      startedAt: now,
      durationMs: 0,
    });
  batch.next = batch.indexes.length;
}

function slotHeard(batch: Batch, index: number, outcome: CallOutcome | undefined, error: unknown): void {
  slotSettled(batch, index, outcome ?? unexpected(error));
}

function slotFailed(batch: Batch, index: number, error: unknown): void {
  slotSettled(batch, index, unexpected(error));
}

function slotSettled(batch: Batch, index: number, outcome: CallOutcome): void {
  batch.outcomes.set(index, outcome);
  batch.running -= 1;
  if (outcome.kind === 'fatal') halt(batch, outcome);
  fillSlot(batch);
  if (batch.running === 0) batch.done(batch.outcomes);
}
