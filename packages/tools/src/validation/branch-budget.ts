import { _, type Ajv, type KeywordCxt, Name } from 'ajv';
import type { JsonSchema } from './json-schema.js';
import { keyPatternFactor, stringReadCharge, stringReadWeight } from './string-read-costs.js';

/**
 * The keyword tiny adds (to compiled copies only) to every object subschema: each time ajv applies
 * a subschema to a value node, however the compiled code reaches it (a `$ref`, a union branch, an
 * `items` loop, a `$ref`-only branch called as a function), it charges the work meter: 1 per
 * application, plus the size of the node (a string's length, an array's items, an object's keys
 * and their characters, in units of {@link NODE_UNIT}) when the subschema has a keyword that reads
 * all of it (`pattern`, `additionalProperties`, `enum`, ...). Keywords that do more than that
 * (`uniqueItems`) charge through {@link chargeVisits}.
 * @internal
 */
export const VISIT_KEYWORD = 'x-tiny-visit';

/** Visits every validation may make whatever the value and the schema. @internal */
export const MIN_VISITS = 20_000;
/** Visits per (value weight × schema node) pair on top of {@link MIN_VISITS}. @internal */
export const VISITS_PER_PAIR = 2;
/** Hard cap on the visits of one run, whatever the sizes (about a second of work). @internal */
export const MAX_VISITS = 2_000_000;
/** Characters, items or keys that weigh as one visit. @internal */
export const NODE_UNIT = 16; // the compiled charge of a string shifts its length by 4
/**
 * ajv errors a run collecting every issue may hold at once; past them the run stops and the
 * caller falls back to the first failure (failed union branches otherwise pile up errors).
 * @internal
 */
export const MAX_COLLECTED_ERRORS = 1000;

/** Thrown by the meter when the budget is spent; caught by {@link runBudgeted}. */
class BudgetSpent {}
/** Thrown by the meter when too many errors were collected; caught by {@link runBudgeted}. */
class ErrorsOverflow {}

/**
 * Weights of objects already weighed in the current run (objects are weighed once per run): the
 * first object's in `firstWeighed`, the others' in a `WeakMap` made at the second object, so a run
 * that weighs one object (flat arguments against a closed schema: most) allocates no `WeakMap`.
 */
let keyCounts: WeakMap<object, number> | undefined;
let firstWeighed: object | undefined;
let firstWeight = 0;
/** Caches kept for the outermost run only (see {@link runScoped}). */
let scoped = new Map<symbol, unknown>();

/**
 * A cache that lives as long as the outermost budgeted run (values are not mutated during one):
 * created by `create` on first use, dropped when the run ends. Outside a run, a fresh one per call.
 * @internal
 */
export function runScoped<T>(key: symbol, create: () => T): T {
  if (meter.limit === Number.POSITIVE_INFINITY) return create();
  let cache = scoped.get(key) as T | undefined;
  if (cache === undefined) {
    cache = create();
    scoped.set(key, cache);
  }
  return cache;
}

/** The weight of one value node: 1 plus its size in {@link NODE_UNIT}s. */
function weigh(node: unknown): number {
  if (typeof node === 'string') return 1 + Math.floor(node.length / NODE_UNIT);
  if (typeof node !== 'object' || node === null) return 1;
  if (Array.isArray(node)) return 1 + Math.floor(node.length / NODE_UNIT);
  if (node === firstWeighed) return firstWeight;
  let weight = keyCounts?.get(node);
  if (weight === undefined) {
    // Keys and their characters: `patternProperties` and `propertyNames` read every key whole.
    let keys = 0;
    let chars = 0;
    for (const key in node)
      if (Object.hasOwn(node, key)) {
        keys += 1;
        chars += key.length;
      }
    weight = 1 + Math.floor(keys / NODE_UNIT) + Math.floor(chars / NODE_UNIT);
    // Held strongly only inside a run (dropped at its end); outside one, weakly as before.
    if (firstWeighed === undefined && meter.limit !== Number.POSITIVE_INFINITY) {
      firstWeighed = node;
      firstWeight = weight;
    } else {
      keyCounts ??= new WeakMap();
      keyCounts.set(node, weight);
    }
  }
  return weight;
}

/** The state of the current run, read and written by the compiled code (one shared object). */
interface Meter {
  /** Visits charged so far. */
  n: number;
  /** Visits allowed before {@link Meter.over} is called. */
  limit: number;
  /** Errors a compiled function may hold before {@link Meter.over} is called. */
  maxErrors: number;
  /** The value of the run, sized only once the run needs more than {@link MIN_VISITS}. */
  value: unknown;
  /** Schema nodes of the running check. */
  schemaNodes: number;
  /** Whether {@link Meter.limit} is final (the value was sized). */
  sized: boolean;
  weigh(node: unknown): number;
  over(errors: number): void;
}

const meter: Meter = {
  n: 0,
  limit: Number.POSITIVE_INFINITY,
  maxErrors: Number.POSITIVE_INFINITY,
  value: undefined,
  schemaNodes: 1,
  sized: true,
  weigh,
  over(errors) {
    if (errors > meter.maxErrors) throw new ErrorsOverflow();
    if (meter.n <= meter.limit) return;
    if (!meter.sized) {
      meter.sized = true;
      meter.limit = visitBudget(meter.value, meter.schemaNodes);
      if (meter.n <= meter.limit) return;
    }
    throw new BudgetSpent();
  },
};

let last = 0;
const errorsName = new Name('errors');

/** Keywords that read a whole string (the rest of a schema node reads a string in constant time). */
const stringReaders = ['pattern', 'format', 'minLength', 'maxLength'];
/** Keywords that read every key of an object or every part of any value. */
const wholeReaders = [
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'minProperties',
  'maxProperties',
  'const',
  'enum',
];

/** Data units (a scalar, or 16 characters of a string or key) per visit of `enum`/`const`. @internal */
export const DATA_UNITS_PER_VISIT = 32;

/**
 * The size of data under `enum`/`const` in data units: 1 per scalar, array and object, plus the
 * characters of strings and keys in {@link NODE_UNIT}s (iterative: deep data cannot overflow).
 */
function dataUnits(data: unknown): number {
  let units = 0;
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const node = stack.pop();
    units += 1;
    if (typeof node === 'string') units += Math.floor(node.length / NODE_UNIT);
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else
      for (const [key, item] of Object.entries(node)) {
        units += Math.floor(key.length / NODE_UNIT);
        stack.push(item);
      }
  }
  return units;
}

const sizeOf = (value: unknown): number =>
  Array.isArray(value) ? value.length : typeof value === 'object' && value !== null ? Object.keys(value).length : 0;

/**
 * The fixed visits one application of a schema node costs, whatever the value: 1, plus what ajv's
 * code for it does per application: `enum`/`const` compare the value with every entry (up to each
 * entry's size: {@link DATA_UNITS_PER_VISIT} data units a visit), `properties`, `required` and
 * `dependentRequired` test each name ({@link NODE_UNIT} names a visit). @internal
 */
export function ownCost(node: Record<string, unknown>): number {
  let cost = 1;
  if ('enum' in node) cost += Math.floor(dataUnits(node.enum) / DATA_UNITS_PER_VISIT);
  if ('const' in node) cost += Math.floor(dataUnits(node.const) / DATA_UNITS_PER_VISIT);
  cost += Math.floor((sizeOf(node.properties) + sizeOf(node.required) + dependentNames(node)) / NODE_UNIT);
  return cost;
}

/** The names `dependentRequired` (and draft-07 `dependencies` lists) may test, counted once per list entry. */
function dependentNames(node: Record<string, unknown>): number {
  let names = 0;
  for (const keyword of ['dependentRequired', 'dependencies']) {
    const map = node[keyword];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    for (const list of Object.values(map)) names += 1 + (Array.isArray(list) ? list.length : 0);
  }
  return names;
}

/**
 * How many times one application of a schema node reads every key of an object value: once, plus
 * once per `patternProperties` pattern (each pattern is tested on every key), and once more per
 * pattern when `additionalProperties`/`unevaluatedProperties` tests them again. @internal
 */
export function keyFactor(node: Record<string, unknown>): number {
  const again = 'additionalProperties' in node || 'unevaluatedProperties' in node ? 2 : 1;
  // Each pattern matches every key's characters: its program's size per character (string-read-costs.ts).
  let patterns = 0;
  const map = node.patternProperties;
  if (typeof map === 'object' && map !== null && !Array.isArray(map))
    for (const pattern of Object.keys(map)) patterns += keyPatternFactor(pattern, NODE_UNIT);
  return 1 + patterns * again;
}

/**
 * Registers the metering keyword on an ajv instance (inline code; always valid: it only counts).
 * The charge is chosen per schema node when it is compiled: its {@link ownCost}, plus the value
 * node's weight (times {@link keyFactor}) when a keyword reads all of it, or a string's length
 * when a keyword reads a whole string. @internal
 */
export function useBranchBudget(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: VISIT_KEYWORD,
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      const { gen, data, it } = cxt;
      const node = (typeof it.schema === 'object' ? it.schema : {}) as Record<string, unknown>;
      const state = gen.scopeValue('keyword', { ref: meter });
      const own = ownCost(node);
      const factor = keyFactor(node);
      const weight = factor === 1 ? _`${state}.weigh(${data})` : _`${factor} * ${state}.weigh(${data})`;
      // `format` and `pattern` checks cost what string-read-costs.ts measured, per string read.
      const read = stringReadCharge(node);
      const readCharge =
        read === undefined
          ? _`0`
          : _`(typeof ${data} == "string" ? ${gen.scopeValue('keyword', { ref: read })}(${data}) : 0)`;
      const charge = wholeReaders.some((keyword) => keyword in node)
        ? _`(${state}.n += ${own} + ${weight} + ${readCharge})`
        : stringReaders.some((keyword) => keyword in node)
          ? _`(${state}.n += typeof ${data} == "string" ? ${own} + (${data}.length >> 4) + ${readCharge} : ${own})`
          : own === 1
            ? _`++${state}.n`
            : _`(${state}.n += ${own})`;
      // `errors` is the running count of the compiled function (its own and its callees').
      const over = it.opts.allErrors
        ? _`${charge} > ${state}.limit || ${errorsName} > ${state}.maxErrors`
        : _`${charge} > ${state}.limit`;
      gen.if(over, () => gen.code(_`${state}.over(${errorsName})`));
    },
  });
}

/**
 * Charges `visits` to the current run (keywords whose own work is more than a node's size, such
 * as `uniqueItems`); throws out of the run once the budget is spent. A no-op outside a run. @internal
 */
export function chargeVisits(visits: number): void {
  meter.n += visits;
  if (meter.n > meter.limit) meter.over(0);
}

/** The visits the last budgeted run made (for tests and measurements). @internal */
export function lastBranchVisits(): number {
  return last;
}

/**
 * The weight of `value`: the sum of {@link weigh} over its nodes (counted iteratively, so a deep
 * value cannot overflow the stack here). @internal
 */
export function valueWeight(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    total += weigh(node);
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else for (const key in node) if (Object.hasOwn(node, key)) stack.push((node as Record<string, unknown>)[key]);
  }
  return total;
}

/**
 * The visit budget of `value` under a schema of `schemaNodes` nodes: {@link MIN_VISITS} plus
 * {@link VISITS_PER_PAIR} per (value weight × schema node) pair, at most {@link MAX_VISITS}.
 * Without `$ref` a schema applies each of its nodes to each value node at most once, so only
 * exponential schemas (references, nested unions) and huge inputs meet the limit. @internal
 */
export function visitBudget(value: unknown, schemaNodes = 1): number {
  return Math.min(MAX_VISITS, MIN_VISITS + VISITS_PER_PAIR * valueWeight(value) * Math.max(1, schemaNodes));
}

/** What {@link runBudgeted} returns once the budget is spent. @internal */
export const SPENT = Symbol('tiny.validation.budgetSpent');
/** What {@link runBudgeted} returns once more than `maxErrors` errors were collected. @internal */
export const OVERFLOW = Symbol('tiny.validation.errorsOverflow');

/**
 * Runs `check(value)` (an ajv validate function compiled from {@link countingCopy}) with at most
 * `visitBudget(value, schemaNodes)` visits (the value is sized only once a run passes
 * {@link MIN_VISITS}): its result, {@link SPENT} once the budget is spent, or {@link OVERFLOW} once
 * more than `maxErrors` errors are held at once. `schemaNodes` are the compiled check's schema nodes
 * (see {@link countingCopy}). Options are positional: no options object per run. Re-entrant (a nested
 * run keeps its own count). @internal
 */
export function runBudgeted(
  check: (value: unknown) => unknown,
  value: unknown,
  schemaNodes = 1,
  maxErrors: number = Number.POSITIVE_INFINITY,
): boolean | typeof SPENT | typeof OVERFLOW {
  // The enclosing run's meter, restored at the end (fields in locals: no copy object per run).
  const { n, limit, maxErrors: outerMaxErrors, value: outerValue, schemaNodes: outerSchemaNodes, sized } = meter;
  meter.n = 0;
  meter.limit = MIN_VISITS;
  meter.maxErrors = maxErrors;
  meter.value = value;
  meter.schemaNodes = schemaNodes;
  meter.sized = false;
  try {
    return check(value) === true;
  } catch (error) {
    if (error instanceof BudgetSpent) return SPENT;
    if (error instanceof ErrorsOverflow) return OVERFLOW;
    throw error;
  } finally {
    last = meter.n;
    meter.n = n;
    meter.limit = limit;
    meter.maxErrors = outerMaxErrors;
    meter.value = outerValue;
    meter.schemaNodes = outerSchemaNodes;
    meter.sized = sized;
    // Caches are only reused within a run (values are not mutated during one).
    if (limit === Number.POSITIVE_INFINITY) {
      keyCounts = undefined;
      firstWeighed = undefined;
      if (scoped.size > 0) scoped = new Map();
    }
  }
}

/**
 * Keywords whose value is data, never a schema: copied as they are (a `dependentRequired` map of
 * name lists marked as a schema would hand ajv a `x-tiny-visit: true` "list").
 */
const dataKeywords = new Set(['enum', 'const', 'default', 'examples', 'dependentRequired', '$vocabulary']);

/** Sets `key` as an own property (an assignment to `__proto__` would set the prototype instead). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** What {@link countingCopy} learnt about the schema of a copy. */
interface CopyFacts {
  /** The expanded weight (see {@link countingCopy}). */
  readonly weight: number;
  /** Whether a chain of `$ref`s and in-place keywords leads from a subschema back to itself. */
  readonly loopsInPlace: boolean;
}

/** The facts of each copy made by {@link countingCopy}. */
const copyFacts = new WeakMap<object, CopyFacts>();

/**
 * The expanded weight of a copy made by {@link countingCopy} (1 for anything else): what the
 * visit budget multiplies the value's weight by. @internal
 */
export function schemaNodesOf(copy: JsonSchema): number {
  return copyFacts.get(copy)?.weight ?? 1;
}

/**
 * Whether the schema of a copy made by {@link countingCopy} can apply a subschema to the same
 * value node again without reading it (`anyOf: [..., {$ref: '#'}]`): only then can a stack
 * overflow mean the schema refers back to itself, rather than a value nested too deep. @internal
 */
export function loopsInPlace(copy: JsonSchema): boolean {
  return copyFacts.get(copy)?.loopsInPlace ?? false;
}

/** Keywords whose subschemas apply to the same value node as their parent. */
const inPlaceKeywords = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas']);
/** Past this expanded weight the budget is at its cap anyway; the sum stops growing. */
const WEIGHT_CAP = 1e15;

/** One edge of the schema graph: a subschema applied by its parent. */
interface Edge {
  readonly to: object;
  readonly inPlace: boolean;
}

/**
 * A copy of `schema` with {@link VISIT_KEYWORD} on every object subschema (every object that is
 * not data under `enum`/`const`/`default`/`examples` nor a name-to-schema map); nothing moves, so
 * every JSON pointer still names the same subschema. Walked with an explicit stack (no depth limit:
 * a node left uncounted would be a way around the budget); a node shared by two parents is copied once.
 *
 * The copy's weight (see {@link schemaNodesOf}) is its size once every `$ref` is replaced by its
 * target, as ajv's code applies it: the sum of `ownCost + keyFactor - 1` (1 for a plain node) over
 * the nodes of that expanded tree, so a schema that is merely shared (a chain of `allOf`s of two references
 * to the previous link) weighs what its applications cost. Only a true cycle is counted once: each
 * turn of it reads a deeper part of the value, whose weight the budget grows with.
 * @internal
 */
export function countingCopy(schema: JsonSchema): JsonSchema {
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  /** Subschemas each schema copy applies (its own nodes, then its `$ref` targets). */
  const edges = new Map<object, Edge[]>();
  const ids = new Map<string, object>();
  const refs: [object, string][] = [];
  // [original, copy, is a schema position, nearest schema copy above, keyword it was reached by]
  const stack: [object, Record<string, unknown> | unknown[], boolean, object | undefined, string][] = [];
  const copyOf = (
    node: object,
    isSchema: boolean,
    owner: object | undefined,
    via: string,
  ): Record<string, unknown> | unknown[] => {
    let copy = copies.get(node);
    if (copy === undefined) {
      copy = Array.isArray(node) ? [] : {};
      copies.set(node, copy);
      stack.push([node, copy, isSchema, owner, via]);
    }
    // Definitions are only applied through the `$ref`s that name them.
    if (isSchema && !Array.isArray(node) && owner !== undefined && via !== '$defs' && via !== 'definitions')
      edges.get(owner)?.push({ to: copy, inPlace: inPlaceKeywords.has(via) });
    return copy;
  };
  const root = copyOf(schema, true, undefined, '') as JsonSchema;
  while (stack.length > 0) {
    const [node, copy, isSchema, owner, via] = stack.pop() as (typeof stack)[number];
    if (Array.isArray(node)) {
      // Arrays under schema keywords (`anyOf`, `prefixItems`, `type`): their objects are schemas.
      const list = copy as unknown[];
      for (const item of node)
        list.push(typeof item === 'object' && item !== null ? copyOf(item, isSchema, owner, via) : item);
      continue;
    }
    const target = copy as Record<string, unknown>;
    // A schema node owns what is below it; a name-to-schema map passes its owner on.
    const self = isSchema ? target : owner;
    if (isSchema) edges.set(target, edges.get(target) ?? []);
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if ((isSchema && dataKeywords.has(key)) || typeof value !== 'object' || value === null)
        setOwn(target, key, value);
      else setOwn(target, key, copyOf(value, isSchema ? !schemaMaps.has(key) : true, self, isSchema ? key : via));
    }
    if (isSchema) {
      target[VISIT_KEYWORD] = true;
      if (typeof target.$id === 'string') ids.set(target.$id, target);
      if (typeof target.$anchor === 'string') ids.set(`#${target.$anchor}`, target);
      if (typeof target.$dynamicAnchor === 'string') ids.set(`#${target.$dynamicAnchor}`, target);
      if (typeof target.$ref === 'string') refs.push([target, target.$ref]);
      if (typeof target.$dynamicRef === 'string') refs.push([target, target.$dynamicRef]);
    }
  }
  for (const [from, ref] of refs) {
    const to = ids.get(ref) ?? resolvePointer(root, ref);
    if (to !== undefined) edges.get(from)?.push({ to, inPlace: true });
  }
  for (const node of edges.keys()) checkProtoEntries(node as Record<string, unknown>);
  copyFacts.set(root, { weight: expandedWeight(root, edges), loopsInPlace: hasInPlaceCycle(root, edges) });
  return root;
}

/** A pattern matching exactly the property name `__proto__`, and one matching names that contain it. */
const PROTO_NAME = '^__proto__$';
const PROTO_INSIDE = '(?:__proto__)';

/**
 * ajv leaves a `__proto__` entry of `properties` and `patternProperties` out of its code (so
 * `properties: {__proto__: {type: 'string'}}` checked nothing): the copy adds the same subschema
 * under a `patternProperties` pattern that means the same names (`^__proto__$`, `(?:__proto__)`),
 * which ajv does apply, also when deciding what `additionalProperties` and
 * `unevaluatedProperties` see. The original entry stays (JSON pointers still resolve). The new
 * `patternProperties` object is the node's own (a shared map is never edited).
 */
function checkProtoEntries(node: Record<string, unknown>): void {
  const added: [string, unknown][] = [];
  const { properties, patternProperties } = node;
  if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, '__proto__'))
    added.push([PROTO_NAME, ownValue(properties, '__proto__')]);
  if (
    typeof patternProperties === 'object' &&
    patternProperties !== null &&
    Object.hasOwn(patternProperties, '__proto__')
  )
    added.push([PROTO_INSIDE, ownValue(patternProperties, '__proto__')]);
  if (added.length === 0) return;
  const patterns: Record<string, unknown> = {};
  if (typeof patternProperties === 'object' && patternProperties !== null)
    for (const [key, value] of Object.entries(patternProperties)) setOwn(patterns, key, value);
  for (const [pattern, schema] of added)
    patterns[pattern] = Object.hasOwn(patterns, pattern)
      ? { allOf: [patterns[pattern], schema], [VISIT_KEYWORD]: true }
      : schema;
  node.patternProperties = patterns;
}

/** The own property `key` of `map` (never an inherited accessor such as `__proto__`'s). */
const ownValue = (map: object, key: string): unknown => Object.getOwnPropertyDescriptor(map, key)?.value;

/** The object a local `$ref` (`#`, `#/a/b`) names inside `root`, or undefined. */
function resolvePointer(root: object, ref: string): object | undefined {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let target: unknown = root;
  if (ref !== '#')
    for (const segment of ref.slice(2).split('/')) {
      if (typeof target !== 'object' || target === null) return undefined;
      let name = segment;
      try {
        name = decodeURIComponent(segment);
      } catch {}
      name = name.replace(/~1/g, '/').replace(/~0/g, '~');
      // Own keys only: `#/$defs/constructor` names nothing in a schema without that definition.
      if (!Object.hasOwn(target, name)) return undefined;
      target = (target as Record<string, unknown>)[name];
    }
  return typeof target === 'object' && target !== null && !Array.isArray(target) ? target : undefined;
}

/** The weight of the tree `root` expands to (iterative, memoised: linear in nodes and edges). */
function expandedWeight(root: object, edges: Map<object, Edge[]>): number {
  const memo = new Map<object, number>();
  const active = new Set<object>();
  const nodeWeight = (node: object): number => {
    const record = node as Record<string, unknown>;
    // 1 for a plain node; its charges are at most (ownCost + keyFactor) × the value's weight.
    return ownCost(record) + keyFactor(record) - 1 + stringReadWeight(record, NODE_UNIT, VISITS_PER_PAIR);
  };
  const frames: { node: object; next: number; sum: number }[] = [{ node: root, next: 0, sum: nodeWeight(root) }];
  active.add(root);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as (typeof frames)[number];
    const out = edges.get(frame.node) ?? [];
    if (frame.next < out.length) {
      const { to } = out[frame.next] as Edge;
      frame.next += 1;
      const known = memo.get(to);
      if (known !== undefined) frame.sum = Math.min(WEIGHT_CAP, frame.sum + known);
      else if (!active.has(to)) {
        // A node already on the path is a cycle: counted once, where it was first reached.
        active.add(to);
        frames.push({ node: to, next: 0, sum: nodeWeight(to) });
      }
      continue;
    }
    frames.pop();
    active.delete(frame.node);
    memo.set(frame.node, frame.sum);
    const parent = frames[frames.length - 1];
    if (parent !== undefined) parent.sum = Math.min(WEIGHT_CAP, parent.sum + frame.sum);
  }
  return memo.get(root) ?? 1;
}

/**
 * Whether a chain of in-place edges (`$ref`, `allOf`, `anyOf`, ...) leads from a subschema the
 * root applies back to itself (iterative three-colour walk from the root: a loop in a definition
 * nothing refers to never runs). The walk follows every edge, in place or not, to find what the
 * root reaches, and reports a cycle only among in-place edges.
 */
function hasInPlaceCycle(root: object, edges: Map<object, Edge[]>): boolean {
  // Every subschema the root reaches, through any edge.
  const reached = new Set<object>([root]);
  const pending: object[] = [root];
  while (pending.length > 0) {
    for (const { to } of edges.get(pending.pop() as object) ?? [])
      if (!reached.has(to)) {
        reached.add(to);
        pending.push(to);
      }
  }
  const done = new Set<object>();
  const active = new Set<object>();
  for (const start of reached) {
    if (done.has(start)) continue;
    const frames: { node: object; next: number }[] = [{ node: start, next: 0 }];
    active.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as (typeof frames)[number];
      const out = edges.get(frame.node) ?? [];
      if (frame.next < out.length) {
        const edge = out[frame.next] as Edge;
        frame.next += 1;
        if (!edge.inPlace || done.has(edge.to)) continue;
        if (active.has(edge.to)) return true;
        active.add(edge.to);
        frames.push({ node: edge.to, next: 0 });
        continue;
      }
      frames.pop();
      active.delete(frame.node);
      done.add(frame.node);
    }
  }
  return false;
}

/** Keywords whose value maps names to schemas: the map itself is not a schema. */
const schemaMaps = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
