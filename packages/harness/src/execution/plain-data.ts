import type { JsonValue } from '@tiny/tools';

/** How deep {@link toPlainData} follows a value; deeper parts are replaced by {@link TOO_DEEP}. */
export const MAX_PLAIN_DEPTH = 128;
/** How many values {@link toPlainData} converts in one call; the rest is replaced by {@link TOO_LARGE}. */
export const MAX_PLAIN_NODES = 200_000;

/** What stands for the part of a value nested deeper than {@link MAX_PLAIN_DEPTH}. @internal */
export const TOO_DEEP = '[redacted: nested too deep to check for secrets]';
/** What stands for the part of a value past {@link MAX_PLAIN_NODES}. @internal */
export const TOO_LARGE = '[redacted: too large to check for secrets]';
/** What stands for a value whose reading threw (a getter, a `toJSON`, a proxy trap). @internal */
export const UNREADABLE = '[redacted: a value that could not be read]';
/** What stands for a reference back to an enclosing value (JSON cannot hold a cycle). @internal */
export const CIRCULAR = '[circular]';

interface Walk {
  readonly scrub: (text: string) => string;
  /** Objects being converted (their ancestors): met again, they are a cycle. */
  readonly open: Set<object>;
  /** Objects already converted (shared references convert once, to the same copy). */
  readonly done: Map<object, JsonValue | undefined>;
  nodes: number;
}

function isBinary(value: object): value is ArrayBufferView | ArrayBuffer {
  try {
    return ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
  } catch {
    // A revoked proxy: not binary (reading it fails later, and is reported there).
    return false;
  }
}

function binary(value: ArrayBufferView | ArrayBuffer, walk: Walk): JsonValue {
  try {
    const bytes =
      value instanceof ArrayBuffer
        ? Buffer.from(value)
        : Buffer.from(value.buffer as ArrayBuffer, value.byteOffset, value.byteLength);
    return { binary: walk.scrub(bytes.toString('base64')), bytes: bytes.byteLength };
  } catch {
    return UNREADABLE;
  }
}

/** `JSON.stringify`'s first step: `toJSON(key)` when the value has one. Boxed primitives unbox. */
function serialised(value: object, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return (toJSON as (key: string) => unknown).call(value, key);
  if (value instanceof String || value instanceof Number || value instanceof Boolean) return value.valueOf();
  return value;
}

function convert(input: unknown, key: string, walk: Walk, depth: number): JsonValue | undefined {
  if (walk.nodes >= MAX_PLAIN_NODES) return TOO_LARGE;
  walk.nodes += 1;
  let value = input;
  if (typeof value === 'object' && value !== null) {
    const known = walk.done.get(value);
    if (known !== undefined || walk.done.has(value)) return known;
    if (walk.open.has(value)) return CIRCULAR;
    if (isBinary(value)) {
      const out = binary(value, walk);
      walk.done.set(value, out);
      return out;
    }
    try {
      value = serialised(value, key);
    } catch {
      return UNREADABLE;
    }
  }
  switch (typeof value) {
    case 'string':
      return walk.scrub(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return walk.scrub(value.toString());
    case 'object':
      break;
    default:
      // undefined, functions and symbols: left out of objects (null in arrays), as JSON does.
      return undefined;
  }
  if (value === null) return null;
  if (depth >= MAX_PLAIN_DEPTH) return TOO_DEEP;
  const source = value;
  if (walk.open.has(source)) return CIRCULAR;
  const cached = walk.done.get(source);
  if (cached !== undefined) return cached;
  if (isBinary(source)) return binary(source, walk);
  walk.open.add(source);
  let out: JsonValue;
  try {
    if (Array.isArray(source)) {
      const list: JsonValue[] = [];
      const length = Math.min(source.length, MAX_PLAIN_NODES);
      for (let index = 0; index < length; index += 1) {
        let item: unknown;
        try {
          item = source[index];
        } catch {
          item = UNREADABLE;
        }
        list.push(convert(item, String(index), walk, depth + 1) ?? null);
        if (walk.nodes >= MAX_PLAIN_NODES) break;
      }
      out = list;
    } else {
      const record: Record<string, JsonValue> = {};
      // Own enumerable string keys, as JSON reads them (a proxy's `ownKeys` trap included).
      for (const name of Object.keys(source)) {
        let item: unknown;
        try {
          item = (source as Record<string, unknown>)[name];
        } catch {
          item = UNREADABLE;
        }
        const converted = convert(item, name, walk, depth + 1);
        if (converted !== undefined) record[walk.scrub(name)] = converted;
        if (walk.nodes >= MAX_PLAIN_NODES) break;
      }
      out = record;
    }
  } catch {
    out = UNREADABLE;
  } finally {
    walk.open.delete(source);
  }
  walk.done.set(source, out);
  if (input !== source && typeof input === 'object' && input !== null) walk.done.set(input, out);
  return out;
}

/**
 * `value` as the plain JSON data `JSON.stringify` would write for it (`toJSON` called, boxed
 * primitives unboxed, `undefined`, functions and symbols left out, non-finite numbers `null`,
 * Maps and Sets `{}` as JSON writes them), with every string (and object key) passed through
 * `scrub`. Binary data (buffers, typed arrays) becomes `{ binary: <base64>, bytes: <length> }`, so
 * an encoded secret in it can be found. Never throws: a getter, `toJSON` or proxy trap that throws
 * gives a `[redacted: a value that could not be read]` marker, a cycle `[circular]`,
 * a part nested deeper than 128 levels or past 200,000 values a `[redacted: …]` marker (each marker
 * names why).
 * Each getter and `toJSON` runs once, so what the copy holds is what was checked. Streams that
 * serialise host and tool values (`@tiny/ui-stream`) convert them with it once, so writing them out
 * cannot throw.
 */
export function toPlainData(value: unknown, scrub: (text: string) => string = (text) => text): JsonValue | undefined {
  return convert(value, '', { scrub, open: new Set(), done: new Map(), nodes: 0 }, 0);
}

/**
 * A thrown or reported value as text without running its own code unguarded: a string as it is,
 * an error's `name: message`, a primitive's `String()`, else its JSON form (see
 * {@link toPlainData}) or, failing that, `String()` inside a try. Never throws.
 * @internal
 */
export function describeSafely(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' && typeof value !== 'function') return String(value);
  if (value === null) return 'null';
  try {
    if (value instanceof Error) {
      const message = value.message;
      return typeof message === 'string' ? message : describeSafely(message);
    }
  } catch {
    return UNREADABLE;
  }
  let text: string;
  try {
    text = String(value);
  } catch {
    text = '';
  }
  if (text !== '' && text !== '[object Object]') return text;
  const plain = toPlainData(value);
  try {
    return JSON.stringify(plain) ?? text;
  } catch {
    return UNREADABLE;
  }
}
