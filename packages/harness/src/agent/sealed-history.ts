import type { Message } from '@tiny/llm';
import { InvalidInputError } from '@tiny/tools';
import { unboxedForJson } from './unboxed-for-json.js';

/** Deeper than any message a JSON transcript holds: past it the value is taken for a cycle. */
const MAX_DEPTH = 64;

/** What `JSON.stringify` writes for an object with a `toJSON` method: its result, asked for once. */
function jsonOf(value: object, key: string, entryPoint: string): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON !== 'function') return value;
  try {
    return toJSON.call(value, key);
  } catch (error) {
    throw new InvalidInputError({
      entryPoint,
      reason: "a message value's toJSON threw; messages are JSON",
      cause: error,
    });
  }
}

/**
 * A wrapper object as the primitive JSON writes for it (see {@link unboxedForJson}); any other value as
 * it is. Only an object whose prototype is not `Object.prototype`, `Array.prototype` or null is asked
 * (one native call for those alone): a wrapper given one of those prototypes by hand is copied as a
 * plain object.
 */
function unboxed(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === Array.prototype || prototype === null) return value;
  return unboxedForJson(value);
}

/**
 * A JSON copy of a value, frozen at every depth: what `JSON.stringify` would write, read once. A
 * `toJSON` method is called once and its result copied; a function, a symbol or `undefined` is
 * dropped from an object (`undefined` is returned for it, so the caller drops it) and is `null` in
 * an array; arrays stay arrays, any other object becomes a plain object of its own enumerable
 * properties (an accessor is read once, here).
 * @throws {InvalidInputError} for a BigInt, a `toJSON` that throws, or a value nested past any real message.
 */
function frozenCopy(value: unknown, key: string, depth: number, entryPoint: string): unknown {
  if (typeof value === 'object' && value !== null) value = unboxed(jsonOf(value, key, entryPoint));
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') return undefined;
    if (typeof value === 'bigint')
      throw new InvalidInputError({ entryPoint, reason: 'a message holds a BigInt; messages are JSON' });
    return value;
  }
  if (depth > MAX_DEPTH)
    throw new InvalidInputError({
      entryPoint,
      reason: `a message nests deeper than ${MAX_DEPTH} levels (a cycle?); messages are JSON`,
    });
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1)
      copy[index] = frozenCopy(value[index], String(index), depth + 1, entryPoint) ?? null;
    return Object.freeze(copy);
  }
  const copy: Record<string, unknown> = {};
  // `for…in` reads V8's enum cache without allocating a key array; inherited keys are skipped.
  for (const name in value)
    if (Object.hasOwn(value, name)) {
      const item = frozenCopy((value as Record<string, unknown>)[name], name, depth + 1, entryPoint);
      if (item === undefined) continue;
      // An own `__proto__` key (JSON.parse makes one) stays a key: assigned, it would set the copy's prototype.
      if (name === '__proto__')
        Object.defineProperty(copy, name, { value: item, enumerable: true, writable: true, configurable: true });
      else copy[name] = item;
    }
  return Object.freeze(copy);
}

/**
 * The message as the run's history holds it: a deep copy frozen at every depth, made once when the
 * message enters the history, so no one the history is handed to (the model, a provider adapter, a
 * middleware, the caller after the run) can change it by editing the objects, and the caller's own
 * objects are never frozen.
 * @throws {InvalidInputError} when the message is not JSON-shaped (nested past any real message).
 * @internal
 */
export function sealMessage(message: Message, entryPoint = 'AgentHarness'): Message {
  return frozenCopy(message, '', 0, entryPoint) as Message;
}

/**
 * Appends `message` to a run's history, sealed (see {@link sealMessage}): with {@link appendBuilt},
 * the only ways a message enters it, so every message in a history is immutable from then on.
 * @internal
 */
export function appendMessage(history: readonly Message[], message: Message): void {
  (history as Message[]).push(sealMessage(message));
}

/**
 * Appends a message the harness has just built (an object no one else holds): the object itself is
 * frozen in place, and only the values it holds that are objects (which may be shared, such as a
 * call's provider data taken from a response) are sealed copies. Cheaper than {@link appendMessage}
 * for a tool result, whose fields are strings.
 * @internal
 */
export function appendBuilt(history: readonly Message[], message: Message): void {
  const fields = message as unknown as Record<string, unknown>;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value !== 'object' && typeof value !== 'function' && typeof value !== 'symbol') continue;
    if (value === null || !Object.hasOwn(fields, key)) continue;
    const copy = frozenCopy(value, key, 1, 'AgentHarness');
    if (copy === undefined) delete fields[key];
    else fields[key] = copy;
  }
  (history as Message[]).push(Object.freeze(message));
}

/** Each history's last read-only view, with the length it was taken at (a history only grows). */
const views = new WeakMap<readonly Message[], readonly Message[]>();

/**
 * The history's first `length` messages as a frozen array (what middleware reads): a history only
 * grows, so a view of a length is the same whenever it is taken; taken again only for another
 * length, so hooks of one turn share one. Its messages are the sealed ones.
 * @internal
 */
export function historyView(history: readonly Message[], length = history.length): readonly Message[] {
  const last = views.get(history);
  if (last !== undefined && last.length === length) return last;
  const view = Object.freeze(history.slice(0, length));
  views.set(history, view);
  return view;
}
