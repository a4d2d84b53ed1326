import { createToolTimeoutSettings, type ToolTimeoutSettings } from '@tiny/tools';

/**
 * Budgets that bound a run. Exceeding one emits `limit_reached` and rejects with `LimitExceededError`.
 * Every number is checked when the harness is built and when a run starts (`InvalidInputError`
 * naming the option for NaN, negatives, fractions where counts are meant, or `Infinity` where it
 * is not documented as "no limit").
 */
export interface RunLimits {
  /** Model calls per run, nudges included (transport retries are not). Integer ≥ 0, or `Infinity` for no limit. Default 25. */
  readonly maxModelCalls: number;
  /** Tool calls per run, recoveries included (refusals by `beforeTool` hooks are not). Integer ≥ 0, or `Infinity` for no limit. Default 50. */
  readonly maxToolCalls: number;
  /**
   * Levels of nested calls (`context.callTool`; the model's calls are level 0): a `callTool` from a
   * tool at this level is refused with `LimitExceededError` (`tool_depth`, after `limit_reached`)
   * before it is admitted. Integer from 0 (tools may not call tools) to 256;
   * each level is admitted on the stack of the one above, so no setting lets a recursive tool
   * overflow the stack. Default 64.
   */
  readonly maxToolDepth: number;
  /** Retries of one model call after a retryable provider error. Integer ≥ 0. Default 3. */
  readonly maxRetriesPerCall: number;
  /**
   * Wall-clock budget of the whole run in milliseconds (> 0); `undefined` (default) or `Infinity`
   * for none. Enforced while a model call or tool is in flight: at the deadline the run signal they
   * receive is aborted (its reason a `LimitExceededError`), and the run rejects with
   * `LimitExceededError` (`wall_clock`) at once, even when the call ignores its signal (it is raced,
   * its late result discarded; a synchronous tool cannot be interrupted and is checked after it
   * returns). Started tools get `tool_failed`; their ledger rows stay `started` (the effect is unknown).
   */
  readonly wallClockMs?: number | undefined;
  /** Per-tool timeout settings (T9); default `createToolTimeoutSettings()`. */
  readonly toolTimeouts: ToolTimeoutSettings;
  /** Base delay before a model-call retry, doubled each attempt. Finite, ≥ 0. Default 250 ms. */
  readonly retryDelayMs: number;
}

/** The highest `maxToolDepth` accepted: deeper chains of nested calls would risk the stack. @internal */
export const MAX_TOOL_DEPTH = 256;

/** The entries of `values` that are set: an explicit `undefined` keeps the default. @internal */
export function definedEntries<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Fills partial limits with the defaults listed on {@link RunLimits}; a key set to `undefined` keeps its default. */
export function resolveRunLimits(limits: Partial<RunLimits> = {}): RunLimits {
  return {
    maxModelCalls: 25,
    maxToolCalls: 50,
    maxToolDepth: 64,
    maxRetriesPerCall: 3,
    toolTimeouts: createToolTimeoutSettings(),
    retryDelayMs: 250,
    ...definedEntries(limits),
  };
}
