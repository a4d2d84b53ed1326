import { nestsDeeperThan } from '@tiny/llm';
import { MAX_ARGUMENT_DEPTH } from './normalize-arguments.js';

/** A plain-JSON copy of tool arguments, or why none can be made. @internal */
export type ArgumentSnapshot =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly keyword: 'maxDepth' | 'json'; readonly message: string };

/**
 * One value still to copy: where its copy goes (`target[key]`, or the result when `target` is
 * undefined) and the depth an object or array copied there would have (the root's is 1).
 */
type Frame = {
  readonly source: unknown;
  readonly target: Record<string, unknown> | unknown[] | undefined;
  readonly key: string | number;
  readonly inArray: boolean;
  readonly depth: number;
};

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
  const assign = (frame: Frame, copy: unknown): void => {
    const target = frame.target;
    if (target === undefined) result = copy;
    else if (frame.inArray) (target as unknown[])[frame.key as number] = copy;
    else if (copy !== undefined) {
      const key = frame.key as string;
      // An own data property, never an inherited setter (`__proto__` stays a plain key): a key the
      // fresh copy already answers to is defined, any other is assigned (cheaper, same result).
      if (key in target)
        Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else (target as Record<string, unknown>)[key] = copy;
    }
  };
  // Copies by source object, to copy a shared object once and meet a cycle as sharing. Made at the
  // first object below the root (most arguments are one flat object: no map for them).
  let copies: Map<object, unknown> | undefined;
  let rootSource: object | undefined;
  let rootOriginal: object | undefined;
  let rootCopy: unknown;
  // Without shared objects or cycles the copy is a tree, and the deepest frame is its depth;
  // otherwise the copy is walked again for its depth.
  let shared = false;
  let deepest = 0;
  const remember = (frame: Frame, original: object, source: object, copy: unknown): void => {
    if (frame.target === undefined) {
      rootOriginal = original;
      rootSource = source;
      rootCopy = copy;
    } else {
      (copies as Map<object, unknown>).set(original, copy);
      if (original !== source) (copies as Map<object, unknown>).set(source, copy);
    }
  };
  const stack: Frame[] = [{ source: value, target: undefined, key: 0, inArray: false, depth: 1 }];
  try {
    for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
      let source = frame.source;
      if (typeof source === 'object' && source !== null && frame.target !== undefined) {
        if (copies === undefined) {
          copies = new Map();
          if (rootOriginal !== undefined) copies.set(rootOriginal, rootCopy);
          if (rootSource !== undefined) copies.set(rootSource, rootCopy);
        }
        if (copies.has(source)) {
          shared = true;
          assign(frame, copies.get(source));
          continue;
        }
      }
      const original = source;
      if (typeof source === 'object' && source !== null) {
        const toJSON = (source as { toJSON?: unknown }).toJSON;
        if (typeof toJSON === 'function') source = toJSON.call(source, '');
      }
      if (source === undefined) {
        assign(frame, frame.inArray ? null : undefined); // as JSON: a left-out property, a `null` item
        continue;
      }
      if (source === null || typeof source === 'string' || typeof source === 'boolean') {
        assign(frame, source);
        continue;
      }
      if (typeof source === 'number') {
        if (!Number.isFinite(source)) return refuse('json', `holds the number ${source}, which JSON cannot hold`);
        assign(frame, source);
        continue;
      }
      if (typeof source !== 'object') return refuse('json', `holds ${describe(source)}, which is not a JSON value`);
      if (copies !== undefined && copies.size > 1_000_000)
        return refuse('json', 'holds more than a million objects and arrays');
      const depth = frame.depth;
      if (depth > deepest) deepest = depth;
      if (Array.isArray(source)) {
        const length = source.length;
        const copy: unknown[] = new Array(length).fill(null);
        remember(frame, original as object, source, copy);
        assign(frame, copy);
        for (let index = length - 1; index >= 0; index -= 1) {
          stack.push({ source: source[index], target: copy, key: index, inArray: true, depth: depth + 1 });
        }
      } else {
        const copy: Record<string, unknown> = {};
        remember(frame, original as object, source, copy);
        assign(frame, copy);
        const keys = Object.keys(source);
        for (let index = keys.length - 1; index >= 0; index -= 1) {
          const key = keys[index] as string;
          const item = (source as Record<string, unknown>)[key];
          stack.push({ source: item, target: copy, key, inArray: false, depth: depth + 1 });
        }
      }
    }
  } catch (error) {
    return refuse('json', `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (shared ? nestsDeeperThan(result, max) : deepest > max) {
    return refuse('maxDepth', `must not nest objects and arrays more than ${max} levels deep`);
  }
  return { ok: true, value: result };
}

function refuse(keyword: 'maxDepth' | 'json', message: string): ArgumentSnapshot {
  return { ok: false, keyword, message: keyword === 'json' ? `must be plain JSON: the value ${message}` : message };
}
