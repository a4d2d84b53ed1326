import { decodeObjectText } from './decode-object-text.js';
import { isPlainObject } from './is-plain-object.js';

/**
 * Turns a call's arguments, as read from a call object, into an arguments object: an object is
 * returned as is (not copied); a string is decoded (one code fence removed, one level of double
 * encoding undone, then the conservative object ladder); anything else, and any string that does
 * not decode to an object (including `""`, meaning "no arguments"), becomes `{}`.
 *
 * This is the parser's reading of text it found; callers that must not invent an empty object for
 * a side-effecting tool should check for an object themselves first. Never throws.
 */
export function decodeArguments(value: unknown): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  if (typeof value !== 'string') return {};
  return decodeObjectText(value) ?? {};
}
