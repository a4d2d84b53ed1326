import { MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/** One step of a `jsonPath` (`$.operations[0].action`): a property name or an array index. */
type Step = string | number;

/** The most elements one streamed array may hold: an index past it is a flood, not an argument. @internal */
export const MAX_PARTIAL_INDEX = 4096;

/**
 * The steps of a `jsonPath` in the simple form the API sends (`$.a.b[0].c`); `undefined` for any
 * other form, a path deeper than `MAX_WIRE_DEPTH` steps, or an index past `MAX_PARTIAL_INDEX`.
 */
function stepsOf(path: string): Step[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: Step[] = [];
  const pattern = /\.([A-Za-z_][\w-]*)|\[(0|[1-9]\d{0,8})\]|\['((?:[^'\\]|\\.)*)'\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null || steps.length >= MAX_WIRE_DEPTH) return undefined;
    if (match[2] !== undefined) {
      const index = Number(match[2]);
      if (index > MAX_PARTIAL_INDEX) return undefined;
      steps.push(index);
    } else steps.push(match[1] ?? match[3] ?? '');
  }
  return steps.length === 0 ? undefined : steps;
}

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/** A number in the JSON number grammar, the only string form proto3 JSON gives a `double`. */
const CANONICAL_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** What an entry's one value reads as, or why it cannot be read exactly. */
type Leaf = { readonly value: unknown; readonly string: boolean } | { readonly problem: string };

/**
 * The value of one `partialArgs` entry (a `google.protobuf.Value` in proto3 JSON): exactly one of
 * `stringValue` (a string), `numberValue` (a finite number, or its string form in the JSON number
 * grammar), `boolValue` (`true`/`false`, or the strings `"true"`/`"false"`), `nullValue` (`null`
 * or `"NULL_VALUE"`). Anything else (no value, two values, `"5 "`, `"1e400"`, `"yes"`) is a problem.
 */
function leafOf(entry: Readonly<Record<string, unknown>>): Leaf {
  const kinds = ['stringValue', 'numberValue', 'boolValue', 'nullValue'].filter((key) => entry[key] !== undefined);
  if (kinds.length !== 1)
    return { problem: `a partialArgs entry with ${kinds.length === 0 ? 'no' : 'more than one'} value` };
  const raw = entry[kinds[0] as string];
  const bad = { problem: `a partialArgs ${kinds[0]} that cannot be read exactly (${JSON.stringify(raw)})` };
  switch (kinds[0]) {
    case 'stringValue':
      return typeof raw === 'string' ? { value: raw, string: true } : bad;
    case 'numberValue': {
      const value =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string' && CANONICAL_NUMBER.test(raw)
            ? Number(raw)
            : Number.NaN;
      return Number.isFinite(value) ? { value, string: false } : bad;
    }
    case 'boolValue':
      return raw === true || raw === 'true'
        ? { value: true, string: false }
        : raw === false || raw === 'false'
          ? { value: false, string: false }
          : bad;
    default:
      return raw === null || raw === 'NULL_VALUE' ? { value: null, string: false } : bad;
  }
}

/**
 * Streamed function-call arguments (Vertex AI `streamFunctionCallArguments`): each `partialArgs`
 * entry sets the value at its `jsonPath`, string pieces (`stringValue`) of one path joining in
 * order. `apply` returns a reason when an entry cannot be placed or read exactly (an unreadable
 * path, a path deeper than `MAX_WIRE_DEPTH` or through an index past `MAX_PARTIAL_INDEX`, an index
 * that would leave a hole in an array, a path through a value of another kind, a prototype key, a
 * value that is not exactly one readable `google.protobuf.Value`, a path written again with
 * anything but a string piece joining its string, a path that is a prefix of or extends a path already set); the call is then refused, never run with what could be placed. Never throws.
 * @internal
 */
export class PartialArguments {
  readonly root: Record<string, unknown> = {};
  /** Paths (as their steps in JSON) holding a string that later pieces join. */
  private readonly strings = new Set<string>();
  /** Every path (as its steps in JSON) written so far. */
  private readonly written = new Set<string>();
  /** Every strict prefix of a path written so far: a container others were placed in. */
  private readonly interior = new Set<string>();

  apply(entries: unknown): string | undefined {
    if (entries !== undefined && !Array.isArray(entries)) return 'partialArgs that is not a list';
    for (const value of entries ?? []) {
      const entry =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : undefined;
      const path = typeof entry?.jsonPath === 'string' ? entry.jsonPath : undefined;
      const steps = path === undefined ? undefined : stepsOf(path);
      if (entry === undefined || path === undefined || steps === undefined)
        return `an unreadable partialArgs path ${JSON.stringify(path?.slice(0, 80) ?? null)}`;
      if (steps.some((step) => typeof step === 'string' && UNSAFE.has(step)))
        return `a partialArgs path through a reserved key (${path})`;
      const leaf = leafOf(entry);
      if ('problem' in leaf) return leaf.problem;
      const key = JSON.stringify(steps);
      let placed = leaf.value;
      // a path is written once, except for the string pieces that join onto it
      if (this.written.has(key) && !(leaf.string && this.strings.has(key)))
        return `a partialArgs path written twice with a value that does not join the first (${path})`;
      // a path that extends a value already set, or that holds values already set below it, would
      // replace one with the other: either order is a conflict
      if (
        this.interior.has(key) ||
        steps.some((_, end) => end < steps.length - 1 && this.written.has(JSON.stringify(steps.slice(0, end + 1))))
      )
        return `a partialArgs path that overlaps a path already set (${path})`;
      if (leaf.string && this.strings.has(key)) {
        const earlier = this.read(steps);
        if (typeof earlier !== 'string') return `a partialArgs string piece joining a value of another kind (${path})`;
        placed = `${earlier}${leaf.value as string}`;
      }
      if (!this.write(steps, placed))
        return `a partialArgs path through a value of another kind or past the end of a list (${path})`;
      this.written.add(key);
      for (let end = 1; end < steps.length; end += 1) this.interior.add(JSON.stringify(steps.slice(0, end)));
      if (leaf.string) this.strings.add(key);
    }
    return undefined;
  }

  private read(steps: readonly Step[]): unknown {
    let node: unknown = this.root;
    for (const step of steps)
      node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[step] : undefined;
    return node;
  }

  /** Places `leaf`; false when a step goes through a value of another kind or would leave a hole in a list. */
  private write(steps: readonly Step[], leaf: unknown): boolean {
    let node: Record<string | number, unknown> = this.root;
    const fits = (parent: Record<string | number, unknown>, step: Step): boolean =>
      Array.isArray(parent) ? typeof step === 'number' && step <= parent.length : typeof step === 'string';
    for (let index = 0; index < steps.length - 1; index += 1) {
      const step = steps[index] as Step;
      const next = steps[index + 1];
      if (!fits(node, step)) return false;
      let child = Object.hasOwn(node, step) ? node[step] : undefined;
      if (child === undefined) {
        child = typeof next === 'number' ? [] : {};
        node[step] = child;
      }
      if (typeof child !== 'object' || child === null || Array.isArray(child) !== (typeof next === 'number'))
        return false;
      node = child as Record<string | number, unknown>;
    }
    const last = steps[steps.length - 1] as Step;
    if (!fits(node, last)) return false;
    node[last] = leaf;
    return true;
  }
}
