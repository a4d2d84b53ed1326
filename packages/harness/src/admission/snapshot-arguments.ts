import { MAX_ARGUMENT_DEPTH, nestsDeeperThan } from './normalize-arguments.js';

/** A plain-JSON copy of tool arguments, or why none can be made. @internal */
export type ArgumentSnapshot =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly keyword: 'maxDepth' | 'json'; readonly message: string };

type Frame = { readonly source: unknown; readonly assign: (value: unknown) => void; readonly inArray: boolean };

const describe = (value: unknown): string => (typeof value === 'bigint' ? 'a BigInt' : `a ${typeof value}`);

/**
 * A plain-JSON copy of tool arguments (only objects, arrays, strings, finite numbers, booleans and
 * `null`), made once, before anything else reads them, so no later step (validation, redaction,
 * idempotency keys, approval digests, checkpoints) meets a getter, a proxy, a `toJSON` or a value
 * that changes between reads. It follows `JSON.stringify`: `toJSON` is called, an `undefined`
 * property is left out and an `undefined` array item becomes `null`. Refused (`ok: false`) are a
 * `BigInt`, a function or symbol, a non-finite number, a getter, proxy or `toJSON` that throws,
 * and nesting deeper than {@link MAX_ARGUMENT_DEPTH} (cycles included). The walk uses an explicit
 * stack and copies each object once, so neither depth, cycles nor shared objects can overflow the
 * stack or blow up. A string (raw model text to decode) is kept as it is.
 * @internal
 */
export function snapshotArguments(value: unknown, max: number = MAX_ARGUMENT_DEPTH): ArgumentSnapshot {
  let result: unknown;
  const copies = new Map<object, unknown>();
  const stack: Frame[] = [
    {
      source: value,
      assign: (copy) => {
        result = copy;
      },
      inArray: false,
    },
  ];
  try {
    for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
      let source = frame.source;
      if (typeof source === 'object' && source !== null && copies.has(source)) {
        frame.assign(copies.get(source));
        continue;
      }
      const original = source;
      if (typeof source === 'object' && source !== null) {
        const toJSON = (source as { toJSON?: unknown }).toJSON;
        if (typeof toJSON === 'function') source = toJSON.call(source, '');
      }
      if (source === undefined) {
        frame.assign(frame.inArray ? null : undefined); // as JSON: a left-out property, a `null` item
        continue;
      }
      if (source === null || typeof source === 'string' || typeof source === 'boolean') {
        frame.assign(source);
        continue;
      }
      if (typeof source === 'number') {
        if (!Number.isFinite(source)) return refuse('json', `holds the number ${source}, which JSON cannot hold`);
        frame.assign(source);
        continue;
      }
      if (typeof source !== 'object') return refuse('json', `holds ${describe(source)}, which is not a JSON value`);
      if (copies.size > 1_000_000) return refuse('json', 'holds more than a million objects and arrays');
      if (Array.isArray(source)) {
        const length = source.length;
        const copy: unknown[] = Array.from({ length }, () => null);
        copies.set(original as object, copy);
        if (original !== source) copies.set(source, copy);
        frame.assign(copy);
        for (let index = length - 1; index >= 0; index -= 1) {
          stack.push({ source: source[index], assign: assignAt(copy, index), inArray: true });
        }
      } else {
        const copy: Record<string, unknown> = {};
        copies.set(original as object, copy);
        if (original !== source) copies.set(source, copy);
        frame.assign(copy);
        const keys = Object.keys(source);
        for (let index = keys.length - 1; index >= 0; index -= 1) {
          const key = keys[index] as string;
          stack.push({
            source: (source as Record<string, unknown>)[key],
            assign: assignKey(copy, key),
            inArray: false,
          });
        }
      }
    }
  } catch (error) {
    return refuse('json', `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (nestsDeeperThan(result, max)) {
    return refuse('maxDepth', `must not nest objects and arrays more than ${max} levels deep`);
  }
  return { ok: true, value: result };
}

function refuse(keyword: 'maxDepth' | 'json', message: string): ArgumentSnapshot {
  return { ok: false, keyword, message: keyword === 'json' ? `must be plain JSON: the value ${message}` : message };
}

function assignAt(copy: unknown[], index: number): (value: unknown) => void {
  return (value) => {
    copy[index] = value;
  };
}

function assignKey(copy: Record<string, unknown>, key: string): (value: unknown) => void {
  return (value) => {
    if (value === undefined) return;
    // A defined property, never the `__proto__` setter: a key named `__proto__` stays a plain key.
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  };
}
