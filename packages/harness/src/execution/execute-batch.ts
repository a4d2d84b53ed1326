import type { Admission } from '../admission/admission.js';
import { callFormatFields } from '../agent/call-format.js';
import type { LoopState } from '../agent/loop-state.js';
import { type CallOutcome, executeCall, type NestedCallRunner } from './execute-call.js';
import { redactionOf, redactValue } from './redaction.js';

type Executable = Extract<Admission, { kind: 'execute' }>;

/**
 * Whether a batch runs concurrently: two or more calls to execute, `maxConcurrency` above 1, no
 * wrap-tool middleware, and every call reporting `isConcurrencySafe(args)`. Otherwise calls run one at a time in call order.
 * @internal
 */
export function runsConcurrently(state: LoopState, executables: readonly Executable[]): boolean {
  return (
    executables.length >= 2 &&
    state.policy.maxConcurrency > 1 &&
    !state.wrapsTools &&
    executables.every((admission) => admission.entry.tool.isConcurrencySafe(admission.args as never))
  );
}

function emitStarted(state: LoopState, admission: Executable, parentCallId?: string): void {
  if (!state.sink.active) return;
  const started = {
    type: 'tool_started',
    callId: admission.call.id,
    toolName: admission.entry.name,
    ...callFormatFields(state, admission.call.id),
  } as const;
  const capture = state.policy.captureToolIo;
  if (!capture && parentCallId === undefined) {
    state.sink.emit(started);
    return;
  }
  state.sink.emit({
    ...started,
    ...(capture ? { input: redactValue(admission.input, redactionOf(admission.entry.tool)) } : {}),
    ...(parentCallId === undefined ? {} : { parentCallId }),
  });
}

/**
 * Executes the admitted calls of a batch and returns their outcomes by admission index.
 * `tool_started` is emitted only now, after the whole batch was admitted: all at once before a
 * concurrent batch, or just before each call of a serial one. A serial batch stops at the first
 * fatal outcome (later calls never start); a concurrent one lets running siblings finish.
 * Calls start in call order; a synchronous tool settles as it starts, so a batch of them comes back
 * without a promise, and at most `maxConcurrency` asynchronous calls are in flight at once.
 * @internal
 */
export function executeBatch(
  state: LoopState,
  admissions: readonly Admission[],
  callTool: NestedCallRunner,
): Map<number, CallOutcome> | Promise<Map<number, CallOutcome>> {
  const outcomes = new Map<number, CallOutcome>();
  const indexes: number[] = [];
  for (let index = 0; index < admissions.length; index += 1)
    if (admissions[index]?.kind === 'execute') indexes.push(index);
  const executables = indexes.map((index) => admissions[index] as Executable);
  const run = (index: number) => {
    const admission = admissions[index] as Executable;
    return executeCall(state, admission.call, admission.entry, admission.args, 0, callTool);
  };

  if (!runsConcurrently(state, executables)) {
    const serial = (from: number): Map<number, CallOutcome> | Promise<Map<number, CallOutcome>> => {
      for (let at = from; at < indexes.length; at += 1) {
        const index = indexes[at] as number;
        emitStarted(state, admissions[index] as Executable);
        const pending = run(index);
        if (pending instanceof Promise) {
          return pending.then((outcome) => {
            outcomes.set(index, outcome);
            return outcome.kind === 'fatal' ? outcomes : serial(at + 1);
          });
        }
        outcomes.set(index, pending);
        if (pending.kind === 'fatal') break;
      }
      return outcomes;
    };
    return serial(0);
  }

  for (const admission of executables) emitStarted(state, admission);
  let next = 0;
  // One slot: starts calls in order until one is asynchronous, and takes the next call when it settles.
  const slot = (): Promise<void> | undefined => {
    while (next < indexes.length) {
      const index = indexes[next] as number;
      next += 1;
      const pending = run(index);
      if (!(pending instanceof Promise)) {
        outcomes.set(index, pending);
        continue;
      }
      return pending.then((outcome) => {
        outcomes.set(index, outcome);
        return slot();
      });
    }
    return undefined;
  };
  const inFlight: Promise<void>[] = [];
  for (let count = 0; count < state.policy.maxConcurrency; count += 1) {
    const started = slot();
    if (started === undefined) break;
    inFlight.push(started);
  }
  return inFlight.length === 0 ? outcomes : Promise.all(inFlight).then(() => outcomes);
}
