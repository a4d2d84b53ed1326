import type { JsonSchema } from './json-schema.js';

/** Keywords whose value is one subschema. */
const singleSchemaKeywords = new Set([
  'not',
  'if',
  'then',
  'else',
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
]);
/** Keywords whose value is a list of subschemas (`items` as a list is draft-07's tuple form). */
const schemaListKeywords = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names (or patterns) to subschemas (draft-07 `dependencies` also to name lists). */
const schemaMapKeywords = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

/**
 * Whether `key` of a schema holds subschemas. Any other keyword (`x-ui`, OpenAPI's `example`,
 * `contentSchema`, ...) is an annotation: what is under it is data, never applied to a value.
 */
export const isSubschemaKeyword = (key: string): boolean =>
  singleSchemaKeywords.has(key) || schemaListKeywords.has(key) || schemaMapKeywords.has(key);

/** The object subschemas `node` holds under `keyword`, with that keyword. */
function subschemasUnder(node: Record<string, unknown>, keyword: string): object[] {
  if (!Object.hasOwn(node, keyword)) return [];
  const value = node[keyword];
  if (typeof value !== 'object' || value === null) return [];
  const isObject = (item: unknown): item is object => typeof item === 'object' && item !== null && !Array.isArray(item);
  if (Array.isArray(value)) return schemaListKeywords.has(keyword) ? value.filter(isObject) : [];
  if (schemaMapKeywords.has(keyword)) return Object.values(value).filter(isObject);
  return singleSchemaKeywords.has(keyword) ? [value] : [];
}

/** Every object subschema `node` holds directly, with the keyword it is under. */
function subschemasOf(node: Record<string, unknown>): [string, object][] {
  const out: [string, object][] = [];
  for (const key of Object.keys(node))
    if (isSubschemaKeyword(key)) for (const child of subschemasUnder(node, key)) out.push([key, child]);
  return out;
}

/** The object a JSON pointer fragment (`#`, `#/a/b`) names inside `root` (own keys only), or undefined. */
function resolvePointer(root: object, ref: string): object | undefined {
  let target: unknown = root;
  if (ref !== '#')
    for (const segment of ref.slice(2).split('/')) {
      if (typeof target !== 'object' || target === null) return undefined;
      let name = segment;
      try {
        name = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      name = name.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!Object.hasOwn(target, name)) return undefined;
      target = (target as Record<string, unknown>)[name];
    }
  return typeof target === 'object' && target !== null && !Array.isArray(target) ? target : undefined;
}

/**
 * The schema graph of `root`: each schema object with the subschemas it applies, a `$ref`'s
 * target included (local JSON pointers, `$id`s and `$anchor`s it declares; draft-07's `#name`
 * `$id`s too). Built iteratively over schema positions only.
 */
export interface SchemaGraph {
  /** Object subschemas of a schema object, by the keyword they are under (`$ref` for its target). */
  readonly edges: Map<object, [string, object][]>;
}

/** Builds the {@link SchemaGraph} of `root` (linear in its schema objects). */
export function schemaGraph(root: JsonSchema): SchemaGraph {
  const edges = new Map<object, [string, object][]>();
  const names = new Map<string, object>();
  const refs: [object, string][] = [];
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as object;
    if (edges.has(node)) continue;
    const record = node as Record<string, unknown>;
    const children = subschemasOf(record);
    edges.set(node, children);
    if (typeof record.$id === 'string') names.set(record.$id, node);
    if (typeof record.$anchor === 'string') names.set(`#${record.$anchor}`, node);
    if (typeof record.$ref === 'string') refs.push([node, record.$ref]);
    for (const [, child] of children) stack.push(child);
  }
  for (const [from, ref] of refs) {
    const to = names.get(ref) ?? (ref === '#' || ref.startsWith('#/') ? resolvePointer(root, ref) : undefined);
    if (to !== undefined) {
      edges.get(from)?.push(['$ref', to]);
      // A pointer may name an object no keyword walk reached (under an annotation): a schema too.
      if (!edges.has(to)) {
        const extra: object[] = [to];
        while (extra.length > 0) {
          const node = extra.pop() as object;
          if (edges.has(node)) continue;
          const children = subschemasOf(node as Record<string, unknown>);
          edges.set(node, children);
          for (const [, child] of children) extra.push(child);
        }
      }
    }
  }
  return { edges };
}

/** What a `$ref` adds to {@link schemaDepth}: ajv compiles its target inside the referring compile and calls it. */
const REF_LEVELS = 2;

/**
 * The deepest path from the root, in subschema levels, each `$ref` followed counting
 * {@link REF_LEVELS} (a reference back to a schema already on the path, recursion the value's
 * depth bounds, is not followed). Iterative, memoised per schema object.
 */
export function schemaDepth(root: JsonSchema, graph: SchemaGraph): number {
  const memo = new Map<object, number>();
  const active = new Set<object>();
  /** Levels the edge a frame's object was reached by adds (counted when it is done). */
  const levels = new Map<object, number>();
  const frames: { node: object; next: number; depth: number }[] = [{ node: root, next: 0, depth: 0 }];
  active.add(root);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as (typeof frames)[number];
    const out = graph.edges.get(frame.node) ?? [];
    if (frame.next < out.length) {
      const [keyword, to] = out[frame.next] as [string, object];
      frame.next += 1;
      const edge = keyword === '$ref' ? REF_LEVELS : 1;
      const known = memo.get(to);
      if (known !== undefined) frame.depth = Math.max(frame.depth, known + edge);
      else if (!active.has(to)) {
        active.add(to);
        levels.set(to, edge);
        frames.push({ node: to, next: 0, depth: 0 });
      }
      continue;
    }
    frames.pop();
    active.delete(frame.node);
    memo.set(frame.node, frame.depth);
    const parent = frames[frames.length - 1];
    if (parent !== undefined) parent.depth = Math.max(parent.depth, frame.depth + (levels.get(frame.node) ?? 1));
  }
  return memo.get(root) ?? 0;
}

/** Keywords whose subschemas ajv applies to the same value as their parent (evaluations merge). */
const inPlaceKeywords = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', '$ref']);

/**
 * For each object that has `unevaluatedProperties`/`unevaluatedItems`, the entries its keyword
 * tracks (counted by `entriesOf` on it and on every subschema it applies in place, `$ref` targets
 * included, down to one tracking on its own), and how many subschemas that reaches. A subschema
 * reached twice is counted twice (ajv merges its evaluations at each use); a `$ref` back to a
 * schema already on the path (a cycle) is counted once. Stops at the first tracking object past
 * `maxEntries` entries or `maxVisits` subschemas, returning its counts.
 */
export function unevaluatedLoad(
  graph: SchemaGraph,
  entriesOf: (node: Record<string, unknown>) => number,
  maxEntries: number,
  maxVisits: number,
): { entries: number; visits: number } | undefined {
  const tracks = (node: object): boolean => 'unevaluatedProperties' in node || 'unevaluatedItems' in node;
  const inPlace = (node: object): object[] =>
    (graph.edges.get(node) ?? [])
      .filter(([keyword, child]) => inPlaceKeywords.has(keyword) && !tracks(child))
      .map(([, child]) => child);
  /** Counts of objects whose in-place closure has no cycle (the same from any path). */
  const memo = new Map<object, { entries: number; visits: number }>();
  for (const start of graph.edges.keys()) {
    if (!tracks(start)) continue;
    const onPath = new Set<object>([start]);
    type Frame = { node: object; children: object[]; next: number; entries: number; visits: number; cyclic: boolean };
    const frames: Frame[] = [
      {
        node: start,
        children: inPlace(start),
        next: 0,
        entries: entriesOf(start as Record<string, unknown>),
        visits: 1,
        cyclic: false,
      },
    ];
    let total = { entries: 0, visits: 0 };
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as Frame;
      if (frame.entries > maxEntries || frame.visits > maxVisits)
        return { entries: frame.entries, visits: frame.visits };
      if (frame.next < frame.children.length) {
        const child = frame.children[frame.next] as object;
        frame.next += 1;
        const known = memo.get(child);
        if (known !== undefined) {
          frame.entries += known.entries;
          frame.visits += known.visits;
        } else if (onPath.has(child)) frame.cyclic = true;
        else {
          onPath.add(child);
          frames.push({
            node: child,
            children: inPlace(child),
            next: 0,
            entries: entriesOf(child as Record<string, unknown>),
            visits: 1,
            cyclic: false,
          });
        }
        continue;
      }
      frames.pop();
      onPath.delete(frame.node);
      if (!frame.cyclic && frame.node !== start) memo.set(frame.node, { entries: frame.entries, visits: frame.visits });
      const parent = frames[frames.length - 1];
      if (parent === undefined) total = { entries: frame.entries, visits: frame.visits };
      else {
        parent.entries += frame.entries;
        parent.visits += frame.visits;
        if (frame.cyclic) parent.cyclic = true;
      }
    }
    if (total.entries > maxEntries || total.visits > maxVisits) return total;
  }
  return undefined;
}
