import {
  createInvalidToolCall,
  createRefusedToolCall,
  type LanguageModelV1ToolCall,
  recoverToolArguments,
} from '@tiny/llm';
import { exceedsWireDepth, MAX_WIRE_DEPTH } from '../wire/wire-depth.js';

/** A tool call as read off the wire, before its arguments are decoded. */
export interface WireToolCall {
  readonly id: string;
  readonly name: string;
  /** The wire arguments: usually JSON text, sometimes an object, sometimes absent. */
  readonly arguments: unknown;
  readonly extraContent?: LanguageModelV1ToolCall['extraContent'];
}

/** How to decode: where the call was read, and what makes it invalid whatever it holds. */
export interface DecodeToolArgumentsOptions {
  /** Where the call was read (`response`, `stream`); it opens the reason of an invalid call. */
  readonly context: string;
  /**
   * Why the call may not run whatever its arguments hold (cut off by the token limit, a stream that
   * broke its protocol): the call is refused (`createRefusedToolCall`) with this reason, its raw
   * text kept, so the harness never repairs or runs it.
   */
  readonly refuse?: string | undefined;
  /**
   * No repair: only strict JSON (a cut-off stream's arguments must never become a runnable prefix);
   * text that is not strict JSON makes the call refused, so the harness never repairs it either.
   */
  readonly strict?: boolean | undefined;
  /** Appended to the reason of an invalid call under `strict`. */
  readonly strictNote?: string | undefined;
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
        // a string that is not an object
      }
    }
    return { detail: 'the arguments are not a JSON object' };
  } catch (error) {
    return { detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Decodes a provider's tool-call arguments with the leniency every adapter shares, never throwing
 * (a bad call never fails the model call):
 * - nesting deeper than `MAX_WIRE_DEPTH` (arguments or `extraContent`): an invalid call, never serialised;
 * - `refuse`: a refused call with that reason and the raw text, whatever the arguments hold;
 * - absent or `null`: `{}`; an object: taken as is; text of only whitespace: `{}`;
 * - text holding a JSON object (or a JSON string holding one, unwrapped once): decoded;
 * - other text: repaired with `recoverToolArguments` of `@tiny/llm`, unless `strict` (then refused);
 * - anything else: an invalid call, ``<context> contained invalid JSON arguments for tool call
 *   `<id>` (`<name>`): <detail>; raw arguments: <raw>``.
 */
export function decodeToolArguments(call: WireToolCall, options: DecodeToolArgumentsOptions): LanguageModelV1ToolCall {
  const { id, name, arguments: value } = call;
  const deepExtra = exceedsWireDepth(call.extraContent);
  const extra = call.extraContent === undefined || deepExtra ? {} : { extraContent: call.extraContent };
  const tooDeep = (what: string): LanguageModelV1ToolCall => {
    const raw = `<${what} nested deeper than ${MAX_WIRE_DEPTH} levels>`;
    const reason = `${options.context} contained tool call \`${id}\` (\`${name}\`) whose ${what} nest deeper than ${MAX_WIRE_DEPTH} levels`;
    return { ...createInvalidToolCall(id, name, raw, reason), rawArguments: raw };
  };
  if (deepExtra) return tooDeep('extra_content');
  if (exceedsWireDepth(value)) return tooDeep('arguments');
  const raw = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
  const invalid = (detail: string, refused = false): LanguageModelV1ToolCall => {
    const reason = `${options.context} contained invalid JSON arguments for tool call \`${id}\` (\`${name}\`): ${detail}; raw arguments: ${raw}`;
    const call = (refused ? createRefusedToolCall : createInvalidToolCall)(id, name, raw, reason);
    return { ...call, rawArguments: raw, ...extra };
  };
  if (options.refuse !== undefined) return invalid(options.refuse, true);
  if (value === undefined || value === null) return { id, name, arguments: {}, ...extra };
  if (isObject(value)) return { id, name, arguments: value, ...extra };
  if (typeof value === 'string' && raw.trim() === '') return { id, name, arguments: {}, rawArguments: raw, ...extra };
  const parsed = typeof value === 'string' ? parseStrict(raw) : { detail: 'the arguments are not a JSON object' };
  if (exceedsWireDepth(parsed.value)) return tooDeep('arguments');
  if (parsed.value !== undefined) return { id, name, arguments: parsed.value, rawArguments: raw, ...extra };
  const repaired = typeof value === 'string' && options.strict !== true ? recoverToolArguments(raw) : undefined;
  if (exceedsWireDepth(repaired)) return tooDeep('arguments');
  if (repaired !== undefined) return { id, name, arguments: repaired, rawArguments: raw, ...extra };
  const detail = options.strict === true && parsed.detail === '' ? 'cut off' : parsed.detail;
  return invalid(`${detail}${options.strict === true ? (options.strictNote ?? '') : ''}`, options.strict === true);
}

/**
 * A recorded call's argument text as the JSON object a provider accepts when it is replayed: the
 * object it holds, else its repair (`recoverToolArguments`), else `{}` (a call that never decoded
 * is replayed with no arguments; its text stays in the transcript).
 */
export function replayArguments(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (isObject(value)) return value;
  } catch {
    // repaired below
  }
  return recoverToolArguments(raw) ?? {};
}
