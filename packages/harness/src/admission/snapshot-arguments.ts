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
 * One copy being made: its result so far, the copies by source object (to copy a shared object once
 * and meet a cycle as sharing; made at the first object below the root, so most arguments, one flat
 * object, need no map), and the values still to copy. A plain object read by module-level
 * functions, not closures made per call.
 */
interface Walk {
  result: unknown;
  copies: Map<object, unknown> | undefined;
  rootOriginal: object | undefined;
  rootSource: object | undefined;
  rootCopy: unknown;
  /** Without shared objects or cycles the copy is a tree, and the deepest frame is its depth; otherwise it is walked again. */
  shared: boolean;
  deepest: number;
  readonly stack: Frame[];
}

/** Stores `copy` where `frame` says (`target[key]`, or the result when `target` is undefined). */
function assign(walk: Walk, frame: Omit<Frame, 'source'>, copy: unknown): void {
  const target = frame.target;
  if (target === undefined) walk.result = copy;
  else if (frame.inArray) (target as unknown[])[frame.key as number] = copy;
  else if (copy !== undefined) assignMember(target as Record<string, unknown>, frame.key as string, copy);
}

/**
 * An own data property, never an inherited setter (`__proto__` stays a plain key): a key the fresh
 * copy already answers to is defined, any other is assigned (cheaper, same result).
 */
function assignMember(target: Record<string, unknown>, key: string, copy: unknown): void {
  if (key in target)
    Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
  else target[key] = copy;
}

function remember(walk: Walk, frame: Frame, original: object, source: object, copy: unknown): void {
  if (frame.target === undefined) {
    walk.rootOriginal = original;
    walk.rootSource = source;
    walk.rootCopy = copy;
  } else {
    (walk.copies as Map<object, unknown>).set(original, copy);
    if (original !== source) (walk.copies as Map<object, unknown>).set(source, copy);
  }
}

/** What `JSON.stringify` writes for `value` when it is an object with a `toJSON` method: its result. */
function jsonValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? toJSON.call(value, '') : value;
}

/** Copies the frames on the stack, depth first; a refusal as soon as one value cannot be copied. */
function drain(walk: Walk): ArgumentSnapshot | undefined {
  const stack = walk.stack;
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const original = frame.source;
    if (typeof original === 'object' && original !== null && frame.target !== undefined) {
      if (walk.copies === undefined) {
        walk.copies = new Map();
        if (walk.rootOriginal !== undefined) walk.copies.set(walk.rootOriginal, walk.rootCopy);
        if (walk.rootSource !== undefined) walk.copies.set(walk.rootSource, walk.rootCopy);
      }
      if (walk.copies.has(original)) {
        walk.shared = true;
        assign(walk, frame, walk.copies.get(original));
        continue;
      }
    }
    const refused = copyValue(walk, frame, original, jsonValue(original));
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/**
 * Copies `source` (`original` after `toJSON`) where `frame` says: a JSON leaf as it is, an object or
 * array as a new one whose members go on the stack (in reverse, so they are copied in order).
 */
function copyValue(walk: Walk, frame: Frame, original: unknown, source: unknown): ArgumentSnapshot | undefined {
  if (source === undefined) {
    assign(walk, frame, frame.inArray ? null : undefined); // as JSON: a left-out property, a `null` item
    return undefined;
  }
  if (source === null || typeof source === 'string' || typeof source === 'boolean') {
    assign(walk, frame, source);
    return undefined;
  }
  if (typeof source === 'number') {
    if (!Number.isFinite(source)) return refuse('json', `holds the number ${source}, which JSON cannot hold`);
    assign(walk, frame, source);
    return undefined;
  }
  if (typeof source !== 'object') return refuse('json', `holds ${describe(source)}, which is not a JSON value`);
  if (walk.copies !== undefined && walk.copies.size > 1_000_000)
    return refuse('json', 'holds more than a million objects and arrays');
  const depth = frame.depth;
  if (depth > walk.deepest) walk.deepest = depth;
  const stack = walk.stack;
  if (Array.isArray(source)) {
    const length = source.length;
    const copy: unknown[] = new Array(length).fill(null);
    remember(walk, frame, original as object, source, copy);
    assign(walk, frame, copy);
    for (let index = length - 1; index >= 0; index -= 1) {
      stack.push({ source: source[index], target: copy, key: index, inArray: true, depth: depth + 1 });
    }
  } else {
    const copy: Record<string, unknown> = {};
    remember(walk, frame, original as object, source, copy);
    assign(walk, frame, copy);
    const keys = Object.keys(source);
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index] as string;
      const item = (source as Record<string, unknown>)[key];
      stack.push({ source: item, target: copy, key, inArray: false, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Whether `value` is copied as it is: a string, boolean, `null` or finite number (`undefined` is left out). */
const isLeaf = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));

/** The members of a root object under `keys`, read as {@link copyValue} reads them: last to first. */
function readMembers(source: object, keys: readonly string[]): unknown[] {
  const items = new Array<unknown>(keys.length);
  for (let index = keys.length - 1; index >= 0; index -= 1)
    items[index] = (source as Record<string, unknown>)[keys[index] as string];
  return items;
}

/**
 * The copy of a root object whose members (`items`, read already) are all JSON leaves or
 * `undefined` (left out), or undefined when one is not: the usual arguments, copied without a walk.
 */
function flatCopy(keys: readonly string[], items: readonly unknown[]): Record<string, unknown> | undefined {
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index += 1) {
    const item = items[index];
    if (item === undefined) continue;
    if (!isLeaf(item)) return undefined;
    assignMember(copy, keys[index] as string, item);
  }
  return copy;
}

/**
 * Copies a root object from its members (`items`, read by {@link readMembers}) in order, a JSON leaf
 * in place and anything else through the stack before the next member, exactly as if every member
 * had been a frame.
 */
function copyRootObject(
  walk: Walk,
  frame: Frame,
  original: object,
  source: object,
  keys: readonly string[],
  items: readonly unknown[],
): ArgumentSnapshot | undefined {
  walk.deepest = 1;
  const copy: Record<string, unknown> = {};
  remember(walk, frame, original, source, copy);
  walk.result = copy;
  for (let index = 0; index < keys.length; index += 1) {
    const item = items[index];
    if (item === undefined) continue;
    const key = keys[index] as string;
    if (isLeaf(item)) {
      assignMember(copy, key, item);
      continue;
    }
    walk.stack.push({ source: item, target: copy, key, inArray: false, depth: 2 });
    const refused = drain(walk);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

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
  let walk: Walk;
  try {
    const source = jsonValue(value);
    let refused: ArgumentSnapshot | undefined;
    if (typeof source === 'object' && source !== null && !Array.isArray(source)) {
      const keys = Object.keys(source);
      const items = readMembers(source, keys);
      // The usual arguments, one flat object of leaves, are copied without a walk.
      const flat = flatCopy(keys, items);
      if (flat !== undefined) return max >= 1 ? { ok: true, value: flat } : tooDeep(max);
      walk = createWalk();
      refused = copyRootObject(walk, rootFrame(value), value as object, source, keys, items);
    } else {
      walk = createWalk();
      refused = copyValue(walk, rootFrame(value), value, source) ?? drain(walk);
    }
    if (refused !== undefined) return refused;
  } catch (error) {
    return refuse('json', `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (walk.shared ? nestsDeeperThan(walk.result, max) : walk.deepest > max) return tooDeep(max);
  return { ok: true, value: walk.result };
}

function createWalk(): Walk {
  return {
    result: undefined,
    copies: undefined,
    rootOriginal: undefined,
    rootSource: undefined,
    rootCopy: undefined,
    shared: false,
    deepest: 0,
    stack: [],
  };
}

/** The frame of the value being copied: its copy is the result. */
function rootFrame(value: unknown): Frame {
  return { source: value, target: undefined, key: 0, inArray: false, depth: 1 };
}

function tooDeep(max: number): ArgumentSnapshot {
  return refuse('maxDepth', `must not nest objects and arrays more than ${max} levels deep`);
}

function refuse(keyword: 'maxDepth' | 'json', message: string): ArgumentSnapshot {
  return { ok: false, keyword, message: keyword === 'json' ? `must be plain JSON: the value ${message}` : message };
}
