/** `850 ms`, `1.25 s`, `2 min 5 s`; `—` when unknown. @internal */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** What stands for a recorded value that has no JSON form (a cycle, a BigInt, a throwing `toJSON`). @internal */
export const UNSHOWABLE = '[a value that cannot be shown as JSON]';

/**
 * Pretty JSON for a captured value; strings stay as they are. A value is shown as the JSON it was
 * recorded as, never through its own `toString` (an object's `toString` could print what its JSON
 * form leaves out). @internal
 */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return UNSHOWABLE;
  }
}

/** {@link formatValue} on one line, for inline text (a progress message). @internal */
export function inlineValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return UNSHOWABLE;
  }
}

/** CSS `left` and `width` from shares of the track's width. @internal */
export function barStyle(extent: { readonly left: number; readonly width: number }): string {
  return `left:${(extent.left * 100).toFixed(2)}%;width:${(extent.width * 100).toFixed(2)}%`;
}

/** `1 turn`, `2 turns`. @internal */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
