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

/** A wire `content` field split by meaning. @internal */
export interface ContentParts {
  readonly text: string;
  readonly reasoning: string;
  readonly refusal: string;
}

/** The text of Mistral's `thinking` field: a string, or `text` sub-parts. */
function thinkingText(value: unknown): string {
  if (typeof value === 'string') return value;
  let text = '';
  for (const part of asArray(value)) {
    const record = asRecord(part);
    const piece = asString(record?.text);
    if (piece !== undefined && (record?.type === undefined || record.type === 'text')) text += piece;
  }
  return text;
}

/**
 * A wire `content` field split into text, reasoning and refusal: a string is text; in an array of
 * parts (Mistral, some proxies) only `type: "text"` parts (or untyped ones with `text`) are text,
 * `type: "thinking"` parts (Magistral: `thinking` as text sub-parts or a string) are reasoning, and
 * `type: "refusal"` parts are the refusal. Other parts (images, references) and anything else
 * (`null`, absent) give nothing.
 * @internal
 */
export function contentParts(value: unknown): ContentParts {
  if (typeof value === 'string') return { text: value, reasoning: '', refusal: '' };
  let text = '';
  let reasoning = '';
  let refusal = '';
  for (const part of asArray(value)) {
    const record = asRecord(part);
    if (record === undefined) continue;
    if (record.type === 'thinking') reasoning += thinkingText(record.thinking);
    else if (record.type === 'refusal') refusal += asString(record.refusal) ?? '';
    else if (record.type === undefined || record.type === 'text') text += asString(record.text) ?? '';
  }
  return { text, reasoning, refusal };
}

/** The text parts of a wire `content` field (see {@link contentParts}). @internal */
export function contentText(value: unknown): string {
  return contentParts(value).text;
}
