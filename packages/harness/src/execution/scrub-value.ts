import { containsSecret, scrubText } from './secret-variants.js';

const MAX_DEPTH = 32;

/** Binary data is passed as it is: it is not text, and walking a large buffer's indices costs too much. */
const isBinary = (value: object) => ArrayBuffer.isView(value) || value instanceof ArrayBuffer;

function mentions(value: unknown, secrets: readonly string[], seen: Set<object>, depth: number): boolean {
  if (typeof value === 'string') return containsSecret(value, secrets);
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null || seen.has(value) || depth > MAX_DEPTH || isBinary(value)) return false;
  seen.add(value);
  if (value instanceof Map || value instanceof Set) {
    for (const entry of value instanceof Map ? value.entries() : value.values())
      if (mentions(entry, secrets, seen, depth + 1)) return true;
  }
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'string' && mentions(key, secrets, seen, depth)) return true;
    if (mentions(read(value, key), secrets, seen, depth + 1)) return true;
  }
  // `message` and `stack` may live on the prototype chain (a getter, a class field default).
  if (
    value instanceof Error &&
    (mentions(value.message, secrets, seen, depth) || mentions(value.stack, secrets, seen, depth))
  )
    return true;
  return false;
}

function read(value: object, key: string | symbol): unknown {
  try {
    return (value as Record<string | symbol, unknown>)[key];
  } catch {
    return undefined;
  }
}

function copy(value: unknown, secrets: readonly string[], seen: Map<object, unknown>, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (depth > MAX_DEPTH) return '[redacted: nested too deep]';
  if (isBinary(value)) return value;
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    seen.set(value, out);
    for (const [key, item] of value) out.set(copy(key, secrets, seen, depth + 1), copy(item, secrets, seen, depth + 1));
    return out;
  }
  if (value instanceof Set) {
    const out = new Set<unknown>();
    seen.set(value, out);
    for (const item of value) out.add(copy(item, secrets, seen, depth + 1));
    return out;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, secrets, seen, depth + 1));
    return out;
  }
  // Same prototype, so `instanceof` and the `Symbol.for` markers (own fields) still classify it.
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string | symbol, unknown>;
  seen.set(value, out);
  const keys = Reflect.ownKeys(value);
  for (const key of keys) {
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    const name = typeof key === 'string' ? scrubText(key, secrets) : key;
    Object.defineProperty(out, name, {
      value: copy(read(value, key), secrets, seen, depth + 1),
      writable: true,
      enumerable: descriptor?.enumerable ?? true,
      configurable: true,
    });
  }
  if (value instanceof Error) {
    for (const key of ['message', 'stack'] as const) {
      if (keys.includes(key)) continue;
      const text = read(value, key);
      if (typeof text === 'string')
        Object.defineProperty(out, key, { value: scrubText(text, secrets), writable: true, configurable: true });
    }
  }
  return out;
}

/**
 * `value` with every secret (already expanded, see `expandSecrets`) replaced by `[redacted]` in
 * every string it holds: object keys and values, array items, and for errors `message`, `stack`,
 * `cause`, `AggregateError.errors` and any custom property, at any depth (cycles kept). An object
 * that holds no secret comes back as it is (same identity); one that does comes back as a copy with
 * the same prototype (`instanceof` and `isInstance` still hold, and the original is not changed),
 * its getters read once into plain values. Maps and Sets are copied entry by entry; binary data
 * (buffers, typed arrays) passes as it is. A value that cannot be walked (a revoked proxy) is
 * replaced whole by the text {@link UNCHECKABLE}.
 * @internal
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrubText(value, secrets) as T;
  try {
    if (!mentions(value, secrets, new Set(), 0)) return value;
    return copy(value, secrets, new Map(), 0) as T;
  } catch {
    // A value that cannot be walked (a revoked proxy, a throwing `ownKeys` trap) cannot be vouched for.
    return UNCHECKABLE as T;
  }
}

/** What stands for a value the scrubber could not walk: it says so, and carries nothing of it. @internal */
export const UNCHECKABLE = '[redacted: a value that could not be checked for secrets]';
