import { createInvalidToolCall, type LanguageModelV1ToolCall, recoverToolArguments } from '@tiny/llm';
import { exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/** Where a call was read: a whole `response` body or a `stream`; it opens the reason of an invalid call. */
export type ToolCallContext = 'response' | 'stream';

/** A call as read off the wire, before its arguments are decoded. */
export interface WireCallInput {
  readonly id: string;
  readonly name: string;
  /** The wire `function.arguments`: usually a string, sometimes an object, sometimes absent. */
  readonly arguments: unknown;
  readonly extraContent?: LanguageModelV1ToolCall['extraContent'];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strict parse; a JSON string that itself holds a JSON object (double encoding) is unwrapped once. */
function parseStrict(raw: string): { value?: Record<string, unknown>; detail: string } {
  try {
    const value: unknown = JSON.parse(raw);
    if (isObject(value)) return { value, detail: '' };
    if (typeof value === 'string' && value.trim().startsWith('{')) {
      try {
        const inner: unknown = JSON.parse(value);
        if (isObject(inner)) return { value: inner, detail: '' };
      } catch {
        // fall through: a string that is not an object
      }
    }
    return { detail: 'the arguments are not a JSON object' };
  } catch (error) {
    return { detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Decodes one wire tool call with the wire leniency every OpenAI-compatible server needs (P1):
 * - `arguments` absent or `null`, or a string of only whitespace: no arguments (`{}`);
 * - an object (some servers send one instead of a string): taken as is, no `rawArguments`;
 * - a string holding a JSON object: decoded, and a JSON string holding a JSON object (double
 *   encoding) is unwrapped once;
 * - anything else is repaired with `recoverToolArguments` (chat-template markers, a duplicated
 *   object, then the conservative `recoverRelaxedObject` ladder);
 * - what no repair recovers becomes an invalid call: `arguments` and `rawArguments` hold the raw
 *   text and `invalid` the reason ``<context> contained invalid JSON arguments for tool call
 *   `<id>` (`<name>`): <detail>; raw arguments: <raw>``. Never throws: a bad call never fails the
 *   model call.
 * - arguments (or `extra_content`) nesting deeper than `MAX_WIRE_DEPTH` levels: an invalid call
 *   (its `extra_content` dropped), never serialised, so no recursive helper meets them;
 * - with `strict` (a stream cut off after its finish reason), no repair is tried: cut-off
 *   arguments stay an invalid call, never a runnable prefix.
 * @internal
 */
export function decodeToolCall(
  input: WireCallInput,
  context: ToolCallContext,
  strict = false,
): LanguageModelV1ToolCall {
  const { id, name } = input;
  const deepExtra = exceedsWireDepth(input.extraContent);
  const extra = input.extraContent === undefined || deepExtra ? {} : { extraContent: input.extraContent };
  const value = input.arguments;
  const tooDeep = (what: string): LanguageModelV1ToolCall => {
    const raw = `<${what} nested deeper than ${MAX_WIRE_DEPTH} levels>`;
    const reason = `${context} contained tool call \`${id}\` (\`${name}\`) whose ${what} nest deeper than ${MAX_WIRE_DEPTH} levels`;
    return { ...createInvalidToolCall(id, name, raw, reason), rawArguments: raw };
  };
  if (deepExtra) return tooDeep('extra_content');
  if (exceedsWireDepth(value)) return tooDeep('arguments');
  if (value === undefined || value === null) return { id, name, arguments: {}, ...extra };
  if (isObject(value)) return { id, name, arguments: value, ...extra };
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value === 'string' && raw.trim() === '') return { id, name, arguments: {}, rawArguments: raw, ...extra };
  const parsed = typeof value === 'string' ? parseStrict(raw) : { detail: 'the arguments are not a JSON object' };
  if (exceedsWireDepth(parsed.value)) return tooDeep('arguments');
  if (parsed.value !== undefined) return { id, name, arguments: parsed.value, rawArguments: raw, ...extra };
  const repaired = typeof value === 'string' && !strict ? recoverToolArguments(raw) : undefined;
  if (exceedsWireDepth(repaired)) return tooDeep('arguments');
  if (repaired !== undefined) return { id, name, arguments: repaired, rawArguments: raw, ...extra };
  const detail = strict && parsed.detail === '' ? 'cut off' : parsed.detail;
  const reason = `${context} contained invalid JSON arguments for tool call \`${id}\` (\`${name}\`): ${detail}${strict ? ' (the stream was cut off after its finish reason; not repaired)' : ''}; raw arguments: ${raw}`;
  return { ...createInvalidToolCall(id, name, raw, reason), rawArguments: raw, ...extra };
}
