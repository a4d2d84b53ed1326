import type { Admission } from '../admission/admission.js';
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
  const started = { type: 'tool_started', callId: admission.call.id, toolName: admission.entry.name } as const;
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
 * @internal
 */
export async function executeBatch(
  state: LoopState,
  admissions: readonly Admission[],
  callTool: NestedCallRunner,
): Promise<Map<number, CallOutcome>> {
  const outcomes = new Map<number, CallOutcome>();
  const indexes: number[] = [];
  for (const [index, admission] of admissions.entries()) if (admission.kind === 'execute') indexes.push(index);
  const executables = indexes.map((index) => admissions[index] as Executable);
  const run = (index: number) => {
    const admission = admissions[index] as Executable;
    return executeCall(state, admission.call, admission.entry, admission.args, 0, callTool);
  };

  if (!runsConcurrently(state, executables)) {
    for (const index of indexes) {
      emitStarted(state, admissions[index] as Executable);
      const pending = run(index);
      // A synchronous tool's outcome is used as is: no promise and no microtask per call.
      const outcome = pending instanceof Promise ? await pending : pending;
      outcomes.set(index, outcome);
      if (outcome.kind === 'fatal') break;
    }
    return outcomes;
  }

  for (const admission of executables) emitStarted(state, admission);
  let next = 0;
  const worker = async () => {
    while (next < indexes.length) {
      const index = indexes[next] as number;
      next += 1;
      const pending = run(index);
      outcomes.set(index, pending instanceof Promise ? await pending : pending);
    }
  };
  const workers = Math.min(state.policy.maxConcurrency, indexes.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}
