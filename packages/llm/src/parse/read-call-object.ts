import { isRecord } from './own-properties.js';
import type { CallSource } from './parse-types.js';
import { readStatedArguments, type StatedArguments, statedCall } from './read-stated-arguments.js';
import type { RawCall } from './scan-types.js';

/** Argument keys, in priority order. Only `arguments` counts on a bare object (see {@link readCalls}). */
export const argumentKeys: readonly string[] = ['arguments', 'args', 'parameters', 'params', 'input'];

/**
 * @internal Reads every call in a parsed JSON value: a `{tool_calls: [...]}` envelope (its entries
 * always read as marked), an array of call objects, or one call object (`{name, arguments}` or the
 * OpenAI entry `{function: {name, arguments}}`).
 *
 * `marked` says the value sat behind a call marker (a tag, a sentinel, `[TOOL_CALLS]`), where any
 * argument-key alias is honoured. A bare object needs the canonical `arguments` key unless its
 * `name` is a known tool, so `{"name":"Alice","input":"hi"}` is an answer, never a call.
 * Missing arguments become `{}`; string arguments are decoded (fence stripped, repaired); any other
 * stated value that is not an object makes an invalid call with the raw text (see
 * {@link readStatedArguments}).
 */
export function readCalls(
  value: unknown,
  marked: boolean,
  isKnown: (name: string) => boolean,
  source: CallSource,
): RawCall[] {
  const calls: RawCall[] = [];
  if (isRecord(value) && Array.isArray(value.tool_calls)) {
    for (const entry of value.tool_calls) {
      const call = readCall(entry, true, isKnown, source);
      if (call !== undefined) calls.push(call);
    }
    if (calls.length > 0) return calls;
  }
  if (Array.isArray(value)) {
    for (const entry of value) {
      const call = readCall(entry, marked, isKnown, source);
      if (call !== undefined) calls.push(call);
    }
    return calls;
  }
  const call = readCall(value, marked, isKnown, source);
  if (call !== undefined) calls.push(call);
  return calls;
}

function readCall(
  value: unknown,
  marked: boolean,
  isKnown: (name: string) => boolean,
  source: CallSource,
): RawCall | undefined {
  if (!isRecord(value)) return undefined;
  const wrapped = value.function;
  if (isRecord(wrapped)) {
    const name = nameOf(wrapped.name);
    if (name !== '') return statedCall(name, argumentsOf(wrapped), source);
  }
  const name = nameOf(value.name);
  if (name === '') return undefined;
  if (marked || isKnown(name)) return statedCall(name, argumentsOf(value), source);
  if (!Object.hasOwn(value, 'arguments')) return undefined;
  return statedCall(name, readStatedArguments(value.arguments), source);
}

function nameOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function argumentsOf(object: Record<string, unknown>): StatedArguments {
  for (const key of argumentKeys) {
    if (Object.hasOwn(object, key)) return readStatedArguments(object[key]);
  }
  return { arguments: {} };
}
