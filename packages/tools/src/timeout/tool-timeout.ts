/**
 * How long a tool may run. `inherit` (the default) takes the host's budget, `unbounded` has no
 * deadline, `explicit` asks for `ms` (clamped by the host's settings).
 */
export type ToolTimeout =
  | { readonly kind: 'inherit' }
  | { readonly kind: 'unbounded' }
  | { readonly kind: 'explicit'; readonly ms: number };

/** The host's timeout settings. Build them with {@link createToolTimeoutSettings}. */
export interface ToolTimeoutSettings {
  /** Budget for `inherit` tools; `0` means no deadline. */
  readonly inheritedMs: number;
  /** Lower clamp, at least 1. */
  readonly minMs: number;
  /** Upper clamp, at least `minMs`. */
  readonly maxMs: number;
  /** Added to the deadline (not to the reported budget) of explicit timeouts. */
  readonly graceMs: number;
}

/** A resolved timeout: what to report and when to actually stop. `undefined` means no deadline. */
export interface ResolvedToolTimeout {
  readonly budgetMs: number | undefined;
  readonly deadlineMs: number | undefined;
}

const finiteOr = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) ? Math.max(0, Math.floor(value)) : fallback;

/**
 * Normalises timeout settings: `minMs >= 1`, `maxMs >= minMs`, negatives and NaN become defaults.
 * Defaults: inherited 120 000 ms, min 1 ms, max 600 000 ms, grace 0 ms.
 */
export function createToolTimeoutSettings(options: Partial<ToolTimeoutSettings> = {}): ToolTimeoutSettings {
  const minMs = Math.max(1, finiteOr(options.minMs, 1));
  const maxMs = Math.max(minMs, finiteOr(options.maxMs, 600_000));
  return {
    inheritedMs: finiteOr(options.inheritedMs, 120_000),
    minMs,
    maxMs,
    graceMs: finiteOr(options.graceMs, 0),
  };
}

/** `ms` within the host's `[minMs, maxMs]` (a module-level function: no closure per resolved timeout). */
const clamp = (ms: number, settings: ToolTimeoutSettings): number =>
  Math.min(settings.maxMs, Math.max(settings.minMs, ms));

/**
 * Resolves a tool's timeout against host settings: `inherit` gets the inherited budget (0 = none,
 * else clamped to [min, max]); `unbounded` gets none; `explicit` is clamped to [min, max] and its
 * deadline (only) gets the grace period added.
 */
export function resolveToolTimeout(timeout: ToolTimeout, settings: ToolTimeoutSettings): ResolvedToolTimeout {
  switch (timeout.kind) {
    case 'unbounded':
      return { budgetMs: undefined, deadlineMs: undefined };
    case 'inherit': {
      if (settings.inheritedMs === 0) return { budgetMs: undefined, deadlineMs: undefined };
      const budget = clamp(settings.inheritedMs, settings);
      return { budgetMs: budget, deadlineMs: budget };
    }
    case 'explicit': {
      const budget = clamp(finiteOr(timeout.ms, settings.minMs), settings);
      return { budgetMs: budget, deadlineMs: budget + settings.graceMs };
    }
  }
}
