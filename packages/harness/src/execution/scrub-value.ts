import { describeSafely, TOO_DEEP, toPlainData, UNREADABLE } from './plain-data.js';
import { containsSecret, scrubText } from './secret-variants.js';

/** How long a `cause` / `errors` chain is followed; deeper links are replaced by a note. */
const MAX_ERROR_DEPTH = 64;

/** The built-in error prototypes a scrubbed copy may keep (a tool's own class could read its secret back). */
const BUILT_IN: ReadonlySet<object> = new Set<object>([
  Error.prototype,
  TypeError.prototype,
  RangeError.prototype,
  SyntaxError.prototype,
  ReferenceError.prototype,
  EvalError.prototype,
  URIError.prototype,
  AggregateError.prototype,
]);

function read(value: object, key: string | symbol): unknown {
  try {
    return (value as Record<string | symbol, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

function builtInPrototype(value: object): { prototype: object; between: object[] } {
  const between: object[] = [];
  let prototype: object | null;
  try {
    prototype = Object.getPrototypeOf(value) as object | null;
    while (prototype !== null && !BUILT_IN.has(prototype) && between.length < 32) {
      between.push(prototype);
      prototype = Object.getPrototypeOf(prototype) as object | null;
    }
  } catch {
    prototype = null;
  }
  return { prototype: prototype !== null && BUILT_IN.has(prototype) ? prototype : Error.prototype, between };
}

function define(target: object, key: string | symbol, value: unknown, enumerable: boolean): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable, configurable: true });
}

interface ErrorWalk {
  readonly scrub: (text: string) => string;
  readonly secrets: readonly string[];
  readonly seen: Map<object, unknown>;
}

function copyThrown(value: unknown, walk: ErrorWalk, depth: number): unknown {
  if (typeof value === 'string') return walk.scrub(value);
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') return walk.scrub(describeSafely(value));
    return value;
  }
  const known = walk.seen.get(value);
  if (known !== undefined) return known;
  if (depth > MAX_ERROR_DEPTH) return TOO_DEEP;
  if (!isError(value)) {
    // A thrown non-error is described once, as text (its `toString` or JSON form), and scrubbed.
    const text = walk.scrub(describeSafely(value));
    walk.seen.set(value, text);
    return text;
  }
  const { prototype, between } = builtInPrototype(value);
  const out = Object.create(prototype) as Record<string | symbol, unknown>;
  walk.seen.set(value, out);
  let keys: (string | symbol)[];
  try {
    keys = Reflect.ownKeys(value);
  } catch {
    keys = [];
  }
  for (const key of keys) {
    let enumerable = true;
    try {
      enumerable = Reflect.getOwnPropertyDescriptor(value, key)?.enumerable ?? true;
    } catch {
      // A proxy's descriptor trap threw: the property is copied as enumerable.
    }
    if (typeof key === 'symbol') {
      // `Symbol.for` markers (`isInstance`) stay; any other symbol-keyed property, and a marker
      // whose description holds a secret, is left out.
      const description = Symbol.keyFor(key);
      if (description !== undefined && !containsSecret(description, walk.secrets) && read(value, key) === true)
        define(out, key, true, enumerable);
      continue;
    }
    if (key === 'message' || key === 'stack') continue;
    const item = read(value, key);
    const copied =
      key === 'cause' || (key === 'errors' && Array.isArray(item))
        ? key === 'errors'
          ? (item as unknown[]).slice(0, 1000).map((entry) => copyThrown(entry, walk, depth + 1))
          : copyThrown(item, walk, depth + 1)
        : toPlainData(item, walk.scrub);
    define(out, walk.scrub(key), copied, enumerable);
  }
  // Getters of the tool's own error classes are read once here, so the copy holds their scrubbed values.
  for (const layer of between) {
    let names: string[];
    try {
      names = Object.getOwnPropertyNames(layer);
    } catch {
      names = [];
    }
    for (const name of names) {
      if (name === 'constructor' || name === 'message' || name === 'stack' || Object.hasOwn(out, name)) continue;
      const descriptor = Reflect.getOwnPropertyDescriptor(layer, name);
      if (descriptor?.get === undefined) continue;
      define(out, name, toPlainData(read(value, name), walk.scrub), false);
    }
  }
  const name = read(value, 'name');
  if (typeof name === 'string' && name !== (prototype as Error).name) define(out, 'name', walk.scrub(name), false);
  const message = read(value, 'message');
  define(
    out,
    'message',
    typeof message === 'string' ? walk.scrub(message) : walk.scrub(describeSafely(message)),
    false,
  );
  const stack = read(value, 'stack');
  if (typeof stack === 'string') define(out, 'stack', walk.scrub(stack), false);
  return out;
}

/**
 * What a tool threw, with every secret (already expanded, see `expandSecrets`) replaced by
 * `[redacted]`. An error becomes a copy built from what could be read of it, each read guarded:
 * the nearest built-in prototype (`Error`, `TypeError`, `AggregateError`, …; never the tool's own
 * class, whose getters or methods could give the secret back), its `name`, scrubbed `message` and
 * `stack`, its `Symbol.for` markers (so `isInstance` still holds), its other own properties and
 * the getters of its own classes as plain JSON data (see `toPlainData`), and `cause` and
 * `AggregateError.errors` copied the same way (cycles kept, 64 links deep). Other symbol-keyed
 * properties are left out. A thrown non-error becomes its scrubbed description (see
 * `describeSafely`). Never throws.
 * @internal
 */
export function scrubThrown(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  const scrub = (text: string) => scrubText(text, secrets);
  return copyThrown(value, { scrub, secrets, seen: new Map() }, 0);
}

/**
 * `value` with every secret (already expanded, see `expandSecrets`) replaced by `[redacted]`:
 * with no secrets, `value` as it is; else a string scrubbed, an error copied (see
 * {@link scrubThrown}), anything else converted to the plain JSON data it would be serialised as
 * (see `toPlainData`: `toJSON` honoured, URLs and Dates as their JSON strings, binary data as
 * base64, never deeper than 128 levels) with every string and key scrubbed. The copy is plain data
 * whatever it held, so what is checked is exactly what is sent, and it always serialises.
 * @internal
 */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrubText(value, secrets) as T;
  if (isError(value)) return scrubThrown(value, secrets) as T;
  return toPlainData(value, (text) => scrubText(text, secrets)) as T;
}

/** What stands for a value the scrubber could not read. @internal */
export const UNCHECKABLE = UNREADABLE;
