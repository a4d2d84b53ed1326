import type { LanguageModelV1ToolCall } from '@tiny/llm';
import { createInvalidToolCall, createRefusedToolCall } from '@tiny/llm';
import { asString, decodeToolArguments, exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/**
 * Whether JSON(-like) text opens more than `max` brackets at once outside its strings: decided by
 * one scan, before any parser or serialiser meets the value.
 */
function textNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      depth += 1;
      if (depth > max) return true;
    } else if (char === '}' || char === ']') depth = Math.max(0, depth - 1);
  }
  return false;
}

/** Why a call's `arguments` are no JSON-object text (the API always sends one), or `undefined`. */
function argumentsProblem(value: unknown): string | undefined {
  if (typeof value === 'string' ? textNestsDeeperThan(value, MAX_WIRE_DEPTH) : exceedsWireDepth(value, MAX_WIRE_DEPTH))
    return `its arguments nest deeper than ${MAX_WIRE_DEPTH} levels`;
  if (typeof value !== 'string')
    return `its arguments are ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}, not JSON object text`;
  if (value.trim() === '') return 'its arguments are empty, not JSON object text';
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return 'its arguments are JSON but not an object';
  } catch {
    // not strict JSON: the shared decoder repairs it or makes the call invalid
  }
  return undefined;
}

/**
 * Decodes a `function_call` item into a call, by its `call_id`, with the shared lenient decoder
 * (relaxed JSON repaired). Arguments that are not text, empty text, or JSON that is not an
 * object make an invalid call (never `{}`), which the harness answers. A `refuse` reason, or an item whose own `status` is
 * there and not `completed` (cut off), or one without a `call_id` (a result could not answer it), makes the call refused (`createRefusedToolCall`) with its raw text: it never runs, never repaired.
 * Never throws.
 * @internal
 */
export function readCall(
  item: Readonly<Record<string, unknown>>,
  context: 'response' | 'stream',
  refuse?: string | undefined,
  argumentsText?: string | undefined,
): LanguageModelV1ToolCall {
  const callId = asString(item.call_id);
  const id = callId ?? asString(item.id) ?? '';
  const name = asString(item.name) ?? '';
  const status = asString(item.status);
  const cut =
    status === undefined || status === 'completed'
      ? undefined
      : `the call item ended with status ${status}, not completed`;
  const value = item.arguments === undefined ? argumentsText : item.arguments;
  // A blank id (' ', '\t') is no id: a result could not answer it.
  const refusal =
    refuse ?? cut ?? (callId === undefined || callId.trim() === '' ? 'the call item has no call_id' : undefined);
  const problem = argumentsProblem(value);
  if (problem !== undefined && (refusal === undefined || problem.startsWith('its arguments nest'))) {
    // Never `{}` in place of what the model sent: the harness answers the invalid call.
    const raw =
      typeof value === 'string'
        ? value
        : value === undefined || exceedsWireDepth(value, MAX_WIRE_DEPTH)
          ? ''
          : (JSON.stringify(value) ?? '');
    const reason = `${context} contained invalid arguments for tool call \`${id}\` (\`${name}\`): ${problem}; raw arguments: ${raw.slice(0, 200)}`;
    // Arguments that are no text at all were not written by the model as text: nothing to repair.
    const make = typeof value === 'string' && refusal === undefined ? createInvalidToolCall : createRefusedToolCall;
    return { ...make(id, name, raw, reason), rawArguments: raw };
  }
  return decodeToolArguments({ id, name, arguments: value }, { context, refuse: refusal });
}
