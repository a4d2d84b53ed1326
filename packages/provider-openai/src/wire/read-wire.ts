import { asArray, asRecord, asString } from '@tiny/provider-utils';

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

/**
 * An id as the wire sent it, read the same way whatever its JSON scalar type: a non-empty string
 * as is, a number or boolean in its string form (`1` and `"1"` are one id), anything else (absent,
 * `null`, `""`, an object) is no id. Completion ids and tool-call ids are both read this way, so a
 * server sending numeric ids is compared like one sending strings.
 * @internal
 */
export function wireId(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
