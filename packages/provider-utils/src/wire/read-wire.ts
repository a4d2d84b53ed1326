/**
 * Readers for untrusted wire JSON. Servers differ in which fields they send, as `null` or not at
 * all, so every read is defensive and never throws.
 */
export type WireRecord = Readonly<Record<string, unknown>>;

/** The value as a plain object, or `undefined` for anything else (arrays included). */
export function asRecord(value: unknown): WireRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireRecord) : undefined;
}

/** The value when it is a string, else `undefined`. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a non-empty string, else `undefined`. */
export function asNonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The value when it is a finite number, else `undefined`. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The value when it is an array, else an empty array. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
