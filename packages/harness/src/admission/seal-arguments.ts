import { deepFreeze, recordedValue } from '../events/recorded-value.js';
import { snapshotArguments } from './snapshot-arguments.js';

/** How many objects and arrays the plain walk copies before it leaves the copy to `snapshotArguments`. */
const PLAIN_COPY_NODES = 10_000;

/** Stands for a copy the plain walk gave up on. */
const TOO_MANY = Symbol('too many nodes');

/**
 * What `JSON.stringify` writes, copied and frozen: a `toJSON` method is called once and its result
 * copied; a function, a symbol or `undefined` is dropped from an object (returned as `undefined`)
 * and is `null` in an array; an object becomes a plain one of its own enumerable properties.
 */
function copyFrozen(value: unknown, key: string, budget: { left: number }): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (typeof value !== 'object' || value === null)
    return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  budget.left -= 1;
  if (budget.left < 0) return TOO_MANY;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const item = copyFrozen(value[index], String(index), budget);
      if (item === TOO_MANY) return TOO_MANY;
      copy[index] = item ?? null;
    }
    return Object.freeze(copy);
  }
  const copy: Record<string, unknown> = {};
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const item = copyFrozen((value as Record<string, unknown>)[name], name, budget);
    if (item === TOO_MANY) return TOO_MANY;
    if (item === undefined) continue;
    // An own data property, never the inherited `__proto__` setter.
    if (name === '__proto__')
      Object.defineProperty(copy, name, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[name] = item;
  }
  return Object.freeze(copy);
}

/**
 * The harness's own frozen copy of arguments it admitted (a `snapshotArguments` value: plain JSON,
 * at most 64 levels deep), taken before the tool runs. The tool keeps the object it is given and may
 * edit it; what the run records of the call (a deferral's pending call and its digest, the captured
 * `tool_started.input`, what `wrapTool` and `afterTool` read) is this copy, so it stays what was
 * admitted. A plain recursive copy for the usual small value; one holding more than 10,000 objects
 * (a value sharing objects could expand without end in a plain walk) is copied by
 * `snapshotArguments`, which copies each shared object once. Either way the copy is what
 * `JSON.stringify` would write, read once (a `toJSON` is called once).
 * @throws what a `toJSON` in `value` throws.
 * @internal
 */
export function sealArguments(value: unknown): unknown {
  const copy = copyFrozen(value, '', { left: PLAIN_COPY_NODES });
  if (copy !== TOO_MANY) return copy;
  const snapshot = snapshotArguments(value);
  return snapshot.ok ? deepFreeze(snapshot.value) : recordedValue(value);
}
