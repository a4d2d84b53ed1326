/**
 * Readers for untrusted wire JSON. Servers differ in which fields they send, as `null` or not at
 * all, so every read is defensive and never throws.
 * @internal
 */
export type WireRecord = Readonly<Record<string, unknown>>;

/** The value as a plain object, or `undefined` for anything else (arrays included). @internal */
export function asRecord(value: unknown): WireRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireRecord) : undefined;
}

/** The value when it is a string, else `undefined`. @internal */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a non-empty string, else `undefined`. @internal */
export function asNonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The value when it is a finite number, else `undefined`. @internal */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The value when it is an array, else an empty array. @internal */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The text of a wire `content` field: a string as is, an array of parts as the concatenation of
 * its `text` parts, anything else (`null`, absent) as `''`.
 * @internal
 */
export function contentText(value: unknown): string {
  if (typeof value === 'string') return value;
  let text = '';
  for (const part of asArray(value)) {
    const record = asRecord(part);
    const piece = asString(record?.text);
    if (piece !== undefined && (record?.type === undefined || record.type === 'text')) text += piece;
  }
  return text;
}
