import type { Message } from '@tiny/llm';
import { unboxedForJson } from '../agent/unboxed-for-json.js';

// A 64-bit hash of what `JSON.stringify` writes of a value, read from the value itself: the JSON
// text is never built. The walk follows JSON's own algorithm (`toJSON` with its key, wrapper
// objects unwrapped, own enumerable keys in order, members that write nothing dropped, array
// elements that write nothing as null, non-finite numbers as null, bigints and cycles rejected),
// and feeds a prefix-free token stream (each string with its length, each container with a tag),
// so two values hash alike exactly when their JSON texts are equal, up to collisions of the hash.
// Two 32-bit lanes, a multiply and a shift per 32-bit word each, finished with an avalanche: a
// fingerprint for diagnostics, not a defence against crafted collisions. The lanes are module
// state, set by `foldMessage` and read right after it (the walk is synchronous).

const START_A = 0x6a09e667;
const START_B = 0x3c6ef372;

let laneA = 0;
let laneB = 0;
let depth = 0;

const TAG_MESSAGE = 0x4d455347;
const TAG_STRING = 0x53000000;
const TAG_ARRAY = 0x41000000;
const TAG_NUMBER = 0x4e554d00;
const TAG_NULL = 0x4e;
const TAG_TRUE = 0x54;
const TAG_FALSE = 0x46;
const TAG_OPEN = 0x7b;
const TAG_CLOSE = 0x7d;
/** A message JSON writes nothing for (`JSON.stringify` gives undefined): not the same as one it writes as `null`. */
const TAG_NOTHING = 0x55;
/** Strings and arrays of `LONG` or more units or elements: the tag, then the length as its own word. */
const TAG_LONG_STRING = 0x73000000;
const TAG_LONG_ARRAY = 0x61000000;
/** Lengths below this are XORed into the low 24 bits of their tag (a tag word per string on the hot path). */
const LONG = 0x1000000;
/** Past this depth a subtree is checked for cycles once, by `JSON.stringify` (which throws on one). */
const CYCLE_CHECK_DEPTH = 64;
const isRawJSON = (JSON as { isRawJSON?: (value: unknown) => boolean }).isRawJSON;

function word(value: number): void {
  laneA = Math.imul(laneA ^ value, 0x9e3779b1);
  laneA ^= laneA >>> 15;
  laneB = Math.imul(laneB ^ value, 0x85ebca77);
  laneB ^= laneB >>> 13;
}

/**
 * A string's or array's tag and length: below `LONG`, one word (the length XORed into the tag's
 * low 24 bits); from `LONG` on, a tag of its own and the length as its own word, so no length
 * makes one kind's tag another's.
 */
function header(tag: number, longTag: number, length: number): void {
  if (length < LONG) word(tag ^ length);
  else {
    word(longTag);
    word(length);
  }
}

/**
 * The lanes after a string's (`kind` `string`) or array's header for `length` alone, or after the
 * single tag word `kind` (a number): states from the same start are equal exactly when the words fed
 * are, so tests compare the real headers' encoding for lengths too long to build. @internal
 */
export function headerState(kind: 'string' | 'array' | number, length = 0): readonly [number, number] {
  laneA = START_A;
  laneB = START_B;
  if (kind === 'string') header(TAG_STRING, TAG_LONG_STRING, length);
  else if (kind === 'array') header(TAG_ARRAY, TAG_LONG_ARRAY, length);
  else word(kind);
  return [laneA, laneB];
}

/** Every tag word that does not carry a length, for {@link headerState}. @internal */
export const FIXED_TAGS: readonly number[] = [
  TAG_MESSAGE,
  TAG_NUMBER,
  TAG_NULL,
  TAG_TRUE,
  TAG_FALSE,
  TAG_OPEN,
  TAG_CLOSE,
  TAG_NOTHING,
];

function text(value: string): void {
  const length = value.length;
  header(TAG_STRING, TAG_LONG_STRING, length);
  let a = laneA;
  let b = laneB;
  let at = 0;
  // Two UTF-16 code units a word.
  for (; at + 1 < length; at += 2) {
    const pair = value.charCodeAt(at) | (value.charCodeAt(at + 1) << 16);
    a = Math.imul(a ^ pair, 0x9e3779b1);
    a ^= a >>> 15;
    b = Math.imul(b ^ pair, 0x85ebca77);
    b ^= b >>> 13;
  }
  laneA = a;
  laneB = b;
  if (at < length) word(value.charCodeAt(at));
}

function number(value: number): void {
  if (Number.isFinite(value)) {
    word(TAG_NUMBER);
    text(String(value));
  } else word(TAG_NULL);
}

/**
 * Feeds a value that is not a string or null (those are fed inline by the callers). `key` is the
 * member name or element index `toJSON` receives. False when JSON writes nothing for it
 * (undefined, a function, a symbol).
 */
function member(input: unknown, key: string | number): boolean {
  let value = input;
  // Any Object (a function too, or a class with a static `toJSON`) and a bigint: JSON calls its `toJSON`.
  if ((typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, String(key));
  }
  switch (typeof value) {
    case 'string':
      text(value);
      return true;
    case 'number':
      number(value);
      return true;
    case 'boolean':
      word(value ? TAG_TRUE : TAG_FALSE);
      return true;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) {
    word(TAG_NULL);
    return true;
  }
  const array = Array.isArray(value);
  if (!array) {
    // A wrapper is known by its internal slot, as JSON knows it (SerializeJSONProperty step 4), not
    // by its prototype or realm: fed as the primitive it holds (a BigInt's is rejected there).
    const primitive = unboxedForJson(value);
    if (primitive !== value) return member(primitive, key);
    // A raw JSON text (Node 21+, a frozen object without prototype) is written as it is: a
    // primitive's text, read back to hash alike.
    if (isRawJSON !== undefined && Object.getPrototypeOf(value) === null && isRawJSON(value))
      return member(JSON.parse((value as { rawJSON: string }).rawJSON), key);
  }
  depth += 1;
  if (depth === CYCLE_CHECK_DEPTH) JSON.stringify(value);
  if (array) {
    const items = value as readonly unknown[];
    const length = items.length;
    header(TAG_ARRAY, TAG_LONG_ARRAY, length);
    for (let index = 0; index < length; index += 1) {
      const element: unknown = items[index];
      if (typeof element === 'string') text(element);
      else if (element === null || !member(element, index)) word(TAG_NULL);
    }
  } else {
    word(TAG_OPEN);
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let index = 0; index < keys.length; index += 1) {
      const name = keys[index] as string;
      const element = record[name];
      if (typeof element === 'string') {
        text(name);
        text(element);
      } else if (element === null) {
        text(name);
        word(TAG_NULL);
      } else {
        const a = laneA;
        const b = laneB;
        text(name);
        // A member JSON drops leaves no trace.
        if (!member(element, name)) {
          laneA = a;
          laneB = b;
        }
      }
    }
    word(TAG_CLOSE);
  }
  depth -= 1;
  return true;
}

/**
 * {@link member} for a value of a sealed message (`sealMessage`, `appendBuilt`): a frozen JSON copy,
 * so no `toJSON`, wrapper, raw JSON text or cycle below its top level; the same words, without the
 * checks (a native call per object for wrappers, a prototype walk for `toJSON`).
 */
function sealedMember(value: unknown, key: string | number): boolean {
  if (typeof value !== 'object') return member(value, key);
  if (value === null) {
    word(TAG_NULL);
    return true;
  }
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    const length = items.length;
    header(TAG_ARRAY, TAG_LONG_ARRAY, length);
    for (let index = 0; index < length; index += 1) {
      const element: unknown = items[index];
      if (typeof element === 'string') text(element);
      else if (element === null || !sealedMember(element, index)) word(TAG_NULL);
    }
    return true;
  }
  word(TAG_OPEN);
  const record = value as Record<string, unknown>;
  // `for…in` reads V8's enum cache without a key array (own keys, in `Object.keys` order).
  for (const name in record) {
    if (!Object.hasOwn(record, name)) continue;
    const element = record[name];
    text(name);
    if (typeof element === 'string') text(element);
    else if (typeof element === 'object') sealedMember(element, name);
    else {
      const a = laneA;
      const b = laneB;
      // A member JSON drops (undefined in a built message's own fields) leaves no trace.
      if (!member(element, name)) {
        laneA = a;
        laneB = b;
      }
    }
  }
  word(TAG_CLOSE);
  return true;
}

/** Whether a `toJSON` inherited by every object or array would make JSON call it on sealed values too. */
const inheritedToJson = (): boolean =>
  (Object.prototype as { toJSON?: unknown }).toJSON !== undefined ||
  (Array.prototype as { toJSON?: unknown }).toJSON !== undefined;

/**
 * Sets the lanes to the state after `message` fed from (`a`, `b`); throws where `JSON.stringify`
 * throws. A `sealed` message (the run's own history) is read without JSON's per-object checks.
 */
function foldMessage(message: Message, a: number, b: number, sealed: boolean): void {
  laneA = a;
  laneB = b;
  depth = 0;
  word(TAG_MESSAGE);
  // A message JSON writes nothing for (not an object, or a `toJSON` giving undefined) still takes a
  // place, apart from one written as `null`.
  const written = sealed && !inheritedToJson() ? sealedMember(message, '') : member(message, '');
  if (!written) word(TAG_NOTHING);
}

/** Each byte's two hex digits: a digest written by table (`toString(16)` is several times slower). */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const hex32 = (value: number): string =>
  (HEX[value >>> 24] as string) +
  (HEX[(value >>> 16) & 255] as string) +
  (HEX[(value >>> 8) & 255] as string) +
  (HEX[value & 255] as string);

/**
 * A running digest of the history: each message's JSON content hashed into two 32-bit lanes
 * continuing from the previous message's, so any way of building the same history (message by
 * message, request by request, all at once) gives the same value, and different content a
 * different one (up to collisions of the 64-bit hash). `a`/`b` hold the state after each message,
 * so a rewrite at message `i` goes on from the state after message `i - 1`, and the state after a
 * message tells whether a message in its place has the same content. @internal
 */
export class HistoryFold {
  private readonly a: number[] = [];
  private readonly b: number[] = [];
  /** The last base `digest` was given, read as two 32-bit halves. */
  private base = '';
  private baseHigh = 0;
  private baseLow = 0;

  get length(): number {
    return this.a.length;
  }

  /** Keeps the state after the first `length` messages. */
  truncate(length: number): void {
    this.a.length = length;
    this.b.length = length;
  }

  /** The states after messages `from` on, for {@link HistoryFold.restore} after a truncation to `from`. */
  tail(from: number): { readonly a: number[]; readonly b: number[] } {
    return { a: this.a.slice(from), b: this.b.slice(from) };
  }

  /** Appends the states `tail` took (the fold truncated back to where they were taken). */
  restore(tail: { readonly a: readonly number[]; readonly b: readonly number[] }): void {
    for (const value of tail.a) this.a.push(value);
    for (const value of tail.b) this.b.push(value);
  }

  /**
   * Appends `message`; throws (nothing changed) where `JSON.stringify` throws (a cycle, a bigint).
   * `sealed`: the message is a sealed one (a run's history holds only those), read faster.
   */
  add(message: Message, sealed = false): void {
    const last = this.a.length - 1;
    foldMessage(
      message,
      last < 0 ? START_A : (this.a[last] as number),
      last < 0 ? START_B : (this.b[last] as number),
      sealed,
    );
    this.a.push(laneA);
    this.b.push(laneB);
  }

  /** Whether `message`, in place of message `index` (< `length`), leaves the same state: the same content. */
  matches(index: number, message: Message): boolean {
    foldMessage(
      message,
      index === 0 ? START_A : (this.a[index - 1] as number),
      index === 0 ? START_B : (this.b[index - 1] as number),
      false,
    );
    return laneA === this.a[index] && laneB === this.b[index];
  }

  /** The digest of a whole prefix: the fold so far, finished with the hash of the parts before the history. */
  digest(base: string): string {
    const last = this.a.length - 1;
    if (base !== this.base) {
      this.base = base;
      this.baseHigh = Number.parseInt(base.slice(0, 8), 16);
      this.baseLow = Number.parseInt(base.slice(8, 16), 16);
    }
    let a = (last < 0 ? START_A : (this.a[last] as number)) ^ this.baseHigh;
    let b = (last < 0 ? START_B : (this.b[last] as number)) ^ this.baseLow;
    a = Math.imul(a ^ (b >>> 15), 0x2c1b3c6d);
    b = Math.imul(b ^ (a >>> 13), 0x297a2d39);
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ (b >>> 7);
    b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35) ^ (a >>> 11);
    a ^= a >>> 16;
    b ^= b >>> 16;
    return hex32(a) + hex32(b);
  }
}
