import type { JsonValue } from '@tiny/tools';
import { toPlainData } from '../execution/plain-data.js';

/**
 * Freezes `value` and every object and array in it, in place. Shared objects are frozen once (a
 * frozen one is not walked again), and the walk uses an explicit stack, so neither sharing nor
 * depth can blow it up.
 * @internal
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    if (Array.isArray(item)) for (const child of item) stack.push(child);
    else for (const key in item) stack.push((item as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * What the run records of a value someone else owns (an event payload, a tool's metadata, a state
 * update, a deferral's metadata): a plain-JSON copy taken now (see `toPlainData`: never throws,
 * `toJSON` honoured, cycles and unreadable parts replaced by markers), frozen at every depth. Later
 * edits of the original change nothing recorded, and no one handed the record can edit it.
 * @internal
 */
export function recordedValue(value: unknown): JsonValue | undefined {
  if (typeof value !== 'object' || value === null) return toPlainData(value);
  return deepFreeze(toPlainData(value));
}
