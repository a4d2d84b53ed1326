import {
  ApprovalRequiredError,
  CallDeferredError,
  ModelRetry,
  prepareToolArguments,
  resolveToolTimeout,
  ToolFailedError,
  ToolInputError,
  type ToolOutput,
  ToolResult,
  ToolTimeoutError,
  toToolResult,
  validateToolArguments,
} from '@tiny/tools';
import type { LoopState, PendingCall } from '../agent/loop-state.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import { idempotencyKeyOf, recordSettled, recordStarted } from '../ledger/record-effect.js';
import { markToolError, middlewareContext, wrapToolOnion } from '../middleware/middleware-runner.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { canStop, isRunStop, runStopError } from '../run/run-stop.js';
import { unserializableReason, unserializableResult } from './serializable-result.js';
import { createCallContext, LazyCallSignal } from './tool-context.js';

/** How one executed call ended. @internal */
export type CallOutcome =
  | {
      readonly kind: 'result';
      readonly result: ToolResult;
      readonly startedAt: number;
      readonly durationMs: number;
      /** The result stands for something `execute` threw (ModelRetry, ToolFailedError, the error policy), or for a result that cannot be serialised. */
      readonly threw?: boolean;
    }
  | {
      readonly kind: 'defer';
      readonly approval: boolean;
      readonly reason: string;
      readonly metadata: unknown;
      readonly startedAt: number;
      readonly durationMs: number;
    }
  | { readonly kind: 'fatal'; readonly error: unknown; readonly startedAt: number; readonly durationMs: number };

/**
 * Signature of the nested-call runner handed to tool contexts; `parent` is the calling tool (its
 * `nestedTools` are looked up first). @internal
 */
export type NestedCallRunner = (
  parentId: string,
  depth: number,
  name: string,
  args: unknown,
  parent?: RegisteredTool,
) => Promise<ToolResult>;

const isPromiseLike = (value: unknown): value is PromiseLike<ToolOutput> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * Waits for an asynchronous tool under its deadline and the run's signal: the first to fire aborts
 * the call's signal and rejects (`ToolTimeoutError` / `RunCancelledError`, or `LimitExceededError` at the run deadline).
 */
function settleWithin(
  state: LoopState,
  pending: PromiseLike<ToolOutput>,
  signal: LazyCallSignal,
  deadlineMs: number | undefined,
  timeoutError: () => ToolTimeoutError,
): Promise<ToolOutput> {
  const runSignal = state.signal;
  if (deadlineMs === undefined && !canStop(runSignal)) return Promise.resolve(pending);
  return new Promise<ToolOutput>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      runSignal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      cleanup();
      signal.abort(runSignal.reason);
      reject(runStopError(state));
    };
    // The tool may have triggered the abort itself before handing back its promise.
    if (runSignal.aborted) {
      Promise.resolve(pending).catch(() => undefined);
      onAbort();
      return;
    }
    runSignal.addEventListener('abort', onAbort, { once: true });
    if (deadlineMs !== undefined) {
      timer = setTimeout(() => {
        cleanup();
        const error = timeoutError();
        signal.abort(error);
        reject(error);
      }, deadlineMs);
    }
    pending.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

/** Arguments a wrap layer changed go through injection and validation again. */
async function revalidate(
  state: LoopState,
  entry: RegisteredTool,
  call: PendingCall,
): Promise<Record<string, unknown>> {
  const prepared = prepareToolArguments(call, entry.tool.injected, state.context.hostValues ?? {}, entry.name);
  const checked = await validateToolArguments(entry.tool, prepared, { signal: state.signal });
  if (!checked.ok) throw new ToolInputError({ toolName: entry.name, issues: checked.issues });
  return checked.value;
}

/**
 * Runs one admitted call under its resolved timeout and the run's signal, and classifies the end:
 * `ModelRetry` → retry result, `ToolFailedError` → failed result, approval/deferral errors →
 * deferral, cancellation → fatal (always propagates), anything else through the tool-error policy.
 * A synchronous `execute` is not raced against anything (it cannot be interrupted). With a ledger,
 * the `started` row is written before `execute` and settled after (`completed` for any returned
 * result, error results included; `failed` for a throw, and for a result that cannot be serialised,
 * which is answered with a tool error whatever the tool-error policy).
 * @internal
 */
export function executeCall(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  depth: number,
  callTool: NestedCallRunner,
): Promise<CallOutcome> {
  const startedAt = Date.now();
  // A call whose run already stopped never starts (and writes no `started` row).
  if (state.signal.aborted) {
    return Promise.resolve({ kind: 'fatal', error: runStopError(state), startedAt, durationMs: 0 });
  }
  // Not `async`: without a ledger, runCall's promise is handed back as is (no second promise per call).
  if (state.ledger !== undefined) return executeWithLedger(state, call, entry, args, depth, callTool, startedAt);
  return runCall(state, call, entry, args, depth, callTool, startedAt, () =>
    idempotencyKeyOf(state, call.id, entry, args),
  );
}

/** {@link executeCall} with a ledger: the `started` row before the call, the settled row after. */
async function executeWithLedger(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  depth: number,
  callTool: NestedCallRunner,
  startedAt: number,
): Promise<CallOutcome> {
  const key = idempotencyKeyOf(state, call.id, entry, args);
  const idempotencyKey = () => key;
  const refused = await recordStarted(state, call, entry, key);
  if (refused !== undefined) return { kind: 'result', result: refused, startedAt, durationMs: 0 };
  const outcome = await runCall(state, call, entry, args, depth, callTool, startedAt, idempotencyKey);
  // Cancellation leaves the row `started`: whether the effect happened is unknown until a resume reconciles it.
  if (!(outcome.kind === 'fatal' && isRunStop(outcome.error))) {
    await recordSettled(state, call.id, outcome.kind === 'result' && outcome.threw !== true ? 'completed' : 'failed');
  }
  return outcome;
}

async function runCall(
  state: LoopState,
  call: PendingCall,
  entry: RegisteredTool,
  args: Record<string, unknown>,
  depth: number,
  callTool: NestedCallRunner,
  startedAt: number,
  idempotencyKey: () => string,
): Promise<CallOutcome> {
  const tool = entry.tool;
  const signal = new LazyCallSignal();
  let running = true;
  const context = createCallContext(state, {
    callId: call.id,
    idempotencyKey,
    signal,
    depth,
    preferMarkdown: state.policy.preferMarkdown && tool.supportsMarkdown,
    isRunning: () => running,
    callTool: (parentId, callDepth, name, args) => callTool(parentId, callDepth, name, args, entry),
  });
  try {
    if (state.signal.aborted) throw runStopError(state);
    const settle = (output: ToolOutput | PromiseLike<ToolOutput>, callArgs: Record<string, unknown>) => {
      if (!isPromiseLike(output)) return output;
      const timeout = resolveToolTimeout(tool.timeoutPolicy(callArgs as never), state.limits.toolTimeouts);
      const budget = timeout.budgetMs ?? timeout.deadlineMs ?? 0;
      const timeoutError = () => new ToolTimeoutError({ toolName: entry.name, timeoutMs: budget });
      return settleWithin(state, output, signal, timeout.deadlineMs, timeoutError);
    };
    const returned = (result: ToolResult): CallOutcome => {
      const durationMs = Date.now() - startedAt;
      const unserializable = unserializableReason(result);
      if (unserializable === undefined) return { kind: 'result', result, startedAt, durationMs };
      return {
        kind: 'result',
        result: unserializableResult(entry.name, unserializable),
        startedAt,
        durationMs,
        threw: true,
      };
    };
    if (!state.wrapsTools) {
      const output = await settle(tool.execute(args as never, context), args);
      return returned(toToolResult(output));
    }
    const innermost = async (wrapped: PendingCall): Promise<ToolResult> => {
      const callArgs = wrapped.arguments === call.arguments ? args : await revalidate(state, entry, wrapped);
      try {
        return toToolResult(await settle(tool.execute(callArgs as never, context), callArgs));
      } catch (error) {
        markToolError(error);
        throw error;
      }
    };
    return returned(await wrapToolOnion(state, innermost, middlewareContext(state, state.turn))(call));
  } catch (error) {
    const durationMs = Date.now() - startedAt;
    if (MiddlewareError.isInstance(error)) return { kind: 'fatal', error, startedAt, durationMs };
    if (isRunStop(error) || state.signal.aborted) {
      return { kind: 'fatal', error: isRunStop(error) ? error : runStopError(state), startedAt, durationMs };
    }
    const result = (value: ToolResult): CallOutcome => ({
      kind: 'result',
      result: value,
      startedAt,
      durationMs,
      threw: true,
    });
    if (ModelRetry.isInstance(error)) return result(ToolResult.retry(error.advice));
    if (ToolFailedError.isInstance(error)) return result(ToolResult.failed(error.reason));
    if (ApprovalRequiredError.isInstance(error) || CallDeferredError.isInstance(error)) {
      const approval = ApprovalRequiredError.isInstance(error);
      return { kind: 'defer', approval, reason: error.reason, metadata: error.metadata, startedAt, durationMs };
    }
    const policy = state.policy.toolErrors;
    if (policy.kind === 'return_error')
      return result(ToolResult.error(error instanceof Error ? error.message : String(error)));
    if (policy.kind === 'message') return result(ToolResult.error(policy.message));
    return { kind: 'fatal', error, startedAt, durationMs };
  } finally {
    running = false;
  }
}
