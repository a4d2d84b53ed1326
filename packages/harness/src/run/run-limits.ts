import { createToolTimeoutSettings, type ToolTimeoutSettings } from '@tiny/tools';

/** Budgets that bound a run. Exceeding one emits `limit_reached` and rejects with `LimitExceededError`. */
export interface RunLimits {
  /** Model calls per run, nudges included (transport retries are not). Default 25. */
  readonly maxModelCalls: number;
  /** Tool calls per run, recoveries included (refusals by `beforeTool` hooks are not). Default 50. */
  readonly maxToolCalls: number;
  /** Retries of one model call after a retryable provider error. Default 3. */
  readonly maxRetriesPerCall: number;
  /** Wall-clock budget of the whole run in milliseconds; `undefined` (default) for none. */
  readonly wallClockMs?: number | undefined;
  /** Per-tool timeout settings (T9); default `createToolTimeoutSettings()`. */
  readonly toolTimeouts: ToolTimeoutSettings;
  /** Base delay before a model-call retry, doubled each attempt. Default 250 ms. */
  readonly retryDelayMs: number;
}

/** Fills partial limits with the defaults listed on {@link RunLimits}. */
export function resolveRunLimits(limits: Partial<RunLimits> = {}): RunLimits {
  return {
    maxModelCalls: 25,
    maxToolCalls: 50,
    maxRetriesPerCall: 3,
    toolTimeouts: createToolTimeoutSettings(),
    retryDelayMs: 250,
    ...limits,
  };
}
