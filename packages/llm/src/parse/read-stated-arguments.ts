import { decodeObjectText } from '../repair/decode-object-text.js';
import { isPlainObject } from '../repair/is-plain-object.js';
import type { CallSource } from './parse-types.js';
import type { RawCall } from './scan-types.js';

/** @internal The arguments part of a {@link RawCall}: an object, or the raw text of a value that is not one. */
export type StatedArguments = Pick<RawCall, 'arguments' | 'invalid'>;

/**
 * @internal Reads the argument value a call states (the value of its `arguments` key, or of an
 * alias): an object is kept as is; a string is decoded as object text (one fence removed, one level
 * of double encoding undone, the conservative object ladder), and a blank string means no
 * arguments; every other value (a number, a boolean, `null`, an array, a string that does not
 * decode to an object) is an *invalid* call carrying the raw text, never `{}`. Callers pass
 * nothing here when the call states no arguments at all: that, alone, is `{}`.
 */
export function readStatedArguments(value: unknown): StatedArguments {
  if (isPlainObject(value)) return { arguments: value };
  if (typeof value === 'string') {
    if (value.trim() === '') return { arguments: {} };
    const decoded = decodeObjectText(value);
    if (decoded !== undefined) return { arguments: decoded };
    return invalidArguments(value, 'the arguments text is not a JSON object');
  }
  return invalidArguments(rawText(value), `the arguments are ${describe(value)}, not an object`);
}

/** @internal An invalid reading of `raw` (the argument text as written) with `reason`. */
export function invalidArguments(raw: string, reason: string): StatedArguments {
  return { arguments: {}, invalid: { raw, reason } };
}

function rawText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * @internal The call named `name` with `stated` arguments, written out field by field (an object
 * spread in the middle of a literal takes the slow path, once per call).
 */
export function statedCall(name: string, stated: StatedArguments, source: CallSource): RawCall {
  return stated.invalid === undefined
    ? { name, arguments: stated.arguments, source }
    : { name, arguments: stated.arguments, invalid: stated.invalid, source };
}
