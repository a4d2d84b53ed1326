import { _, type Ajv, type KeywordCxt, Name } from 'ajv';
import type { JsonSchema } from './json-schema.js';

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

/** Weights of objects already weighed in the current run (objects are weighed once per run). */
let keyCounts = new WeakMap<object, number>();
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
  let weight = keyCounts.get(node);
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
    keyCounts.set(node, weight);
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

/**
 * Registers the metering keyword on an ajv instance (inline code; always valid: it only counts).
 * The charge is chosen per schema node when it is compiled: 1 for a node whose keywords read a
 * value in constant time, the node's weight when a keyword reads all of it. @internal
 */
export function useBranchBudget(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: VISIT_KEYWORD,
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      const { gen, data, it } = cxt;
      const node = (typeof it.schema === 'object' ? it.schema : {}) as Record<string, unknown>;
      const state = gen.scopeValue('keyword', { ref: meter });
      const charge = wholeReaders.some((keyword) => keyword in node)
        ? _`(${state}.n += ${state}.weigh(${data}))`
        : stringReaders.some((keyword) => keyword in node)
          ? _`(${state}.n += typeof ${data} == "string" ? 1 + (${data}.length >> 4) : 1)`
          : _`++${state}.n`;
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

/** Options of one {@link runBudgeted} run. @internal */
interface BudgetedRun {
  /** Schema nodes of the compiled check (see {@link countingCopy}); default 1. */
  readonly schemaNodes?: number;
  /** Errors the run may hold at once before it returns {@link OVERFLOW}; default unbounded. */
  readonly maxErrors?: number;
}

/**
 * Runs `check(value)` (an ajv validate function compiled from {@link countingCopy}) with at most
 * `visitBudget(value, schemaNodes)` visits (the value is sized only once a run passes
 * {@link MIN_VISITS}): its result, {@link SPENT} once the budget is spent, or {@link OVERFLOW}.
 * Re-entrant (a nested run keeps its own count). @internal
 */
export function runBudgeted(
  check: (value: unknown) => unknown,
  value: unknown,
  run: BudgetedRun = {},
): boolean | typeof SPENT | typeof OVERFLOW {
  const outer = { ...meter };
  meter.n = 0;
  meter.limit = MIN_VISITS;
  meter.maxErrors = run.maxErrors ?? Number.POSITIVE_INFINITY;
  meter.value = value;
  meter.schemaNodes = run.schemaNodes ?? 1;
  meter.sized = false;
  try {
    return check(value) === true;
  } catch (error) {
    if (error instanceof BudgetSpent) return SPENT;
    if (error instanceof ErrorsOverflow) return OVERFLOW;
    throw error;
  } finally {
    last = meter.n;
    Object.assign(meter, outer);
    // Caches are only reused within a run (values are not mutated during one).
    if (outer.limit === Number.POSITIVE_INFINITY) {
      keyCounts = new WeakMap();
      if (scoped.size > 0) scoped = new Map();
    }
  }
}

/** Keywords whose value is data, never a schema. */
const dataKeywords = new Set(['enum', 'const', 'default', 'examples']);

/** The copy {@link countingCopy} made and how many schema nodes it meters. @internal */
const nodeCounts = new WeakMap<object, number>();

/** Schema nodes of a copy made by {@link countingCopy} (1 for anything else). @internal */
export function schemaNodesOf(copy: JsonSchema): number {
  return nodeCounts.get(copy) ?? 1;
}

/**
 * A copy of `schema` with {@link VISIT_KEYWORD} on every object subschema (every object that is
 * not data under `enum`/`const`/`default`/`examples` nor a name-to-schema map); nothing moves, so
 * every JSON pointer still names the same subschema. Walked with an explicit stack (no depth limit:
 * a node left uncounted would be a way around the budget); a node shared by two parents is copied once.
 * @internal
 */
export function countingCopy(schema: JsonSchema): JsonSchema {
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const stack: [object, Record<string, unknown> | unknown[], boolean][] = [];
  const copyOf = (node: object, isSchema: boolean): Record<string, unknown> | unknown[] => {
    let copy = copies.get(node);
    if (copy === undefined) {
      copy = Array.isArray(node) ? [] : {};
      copies.set(node, copy);
      stack.push([node, copy, isSchema]);
    }
    return copy;
  };
  const root = copyOf(schema, true) as JsonSchema;
  let nodes = 0;
  while (stack.length > 0) {
    const [node, copy, isSchema] = stack.pop() as [object, Record<string, unknown> | unknown[], boolean];
    if (Array.isArray(node)) {
      // Arrays under schema keywords (`anyOf`, `prefixItems`, `type`): their objects are schemas.
      const list = copy as unknown[];
      for (const item of node) list.push(typeof item === 'object' && item !== null ? copyOf(item, isSchema) : item);
      continue;
    }
    const target = copy as Record<string, unknown>;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if ((isSchema && dataKeywords.has(key)) || typeof value !== 'object' || value === null) target[key] = value;
      else target[key] = copyOf(value, isSchema ? !schemaMaps.has(key) : true);
    }
    if (isSchema) {
      target[VISIT_KEYWORD] = true;
      nodes += 1;
    }
  }
  nodeCounts.set(root, nodes);
  return root;
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
