import type { Ajv } from 'ajv';
import type { JsonSchema } from './json-schema.js';

/**
 * The keyword tiny adds (to compiled copies only) beside every `$ref` (and `$dynamicRef`) and on every object branch of
 * `anyOf`/`oneOf`: each time ajv applies such a subschema it counts one visit. Without `$ref` a
 * schema is a tree and validation costs at most its size times the value's; every exponential
 * blow-up (a recursive union, a `$defs` chain whose every link is referenced twice) goes through
 * `$ref` or a union branch, so bounding these visits bounds the work.
 * @internal
 */
export const VISIT_KEYWORD = 'x-tiny-visit';

/** Visits every validation may make whatever the value: a value of `n` JSON nodes may make `n` times {@link VISITS_PER_NODE} more. @internal */
export const MIN_VISITS = 100_000;
/** Visits per JSON node of the value on top of {@link MIN_VISITS}. @internal */
export const VISITS_PER_NODE = 64;

/** Thrown by the counting keyword when the budget is spent; caught by {@link runBudgeted}. */
class BudgetSpent {}

let remaining = Number.POSITIVE_INFINITY;
let counted = 0;
let last = 0;
/** The value of the current run, sized only once it needs more than {@link MIN_VISITS}. */
let current: unknown;
let sized = true;

/** Registers the counting keyword on an ajv instance (no errors, always valid: it only counts). @internal */
export function useBranchBudget(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: VISIT_KEYWORD,
    schemaType: 'boolean',
    errors: false,
    validate: () => {
      counted += 1;
      if (counted <= remaining) return true;
      if (!sized) {
        sized = true;
        remaining = visitBudget(current);
        if (counted <= remaining) return true;
      }
      throw new BudgetSpent();
    },
  });
}

/** The visits the last budgeted run made (for tests and measurements). @internal */
export function lastBranchVisits(): number {
  return last;
}

/**
 * The visit budget for `value`: {@link MIN_VISITS} plus {@link VISITS_PER_NODE} per JSON node
 * (counted iteratively, so a deep value cannot overflow the stack here). @internal
 */
export function visitBudget(value: unknown): number {
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    nodes += 1;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else for (const key in node) if (Object.hasOwn(node, key)) stack.push((node as Record<string, unknown>)[key]);
  }
  return MIN_VISITS + VISITS_PER_NODE * nodes;
}

/** What {@link runBudgeted} returns once the budget is spent. @internal */
export const SPENT = Symbol('tiny.validation.budgetSpent');

/**
 * Runs `check(value)` (an ajv validate function compiled from {@link countingCopy}) with at most
 * `visitBudget(value)` visits (the value is sized only once a run passes {@link MIN_VISITS}):
 * its result, or {@link SPENT} once the budget is spent. Re-entrant (a nested run keeps its own
 * count). @internal
 */
export function runBudgeted(check: (value: unknown) => unknown, value: unknown): boolean | typeof SPENT {
  const outer = { remaining, counted, current, sized };
  remaining = MIN_VISITS;
  counted = 0;
  current = value;
  sized = false;
  try {
    return check(value) === true;
  } catch (error) {
    if (error instanceof BudgetSpent) return SPENT;
    throw error;
  } finally {
    last = counted;
    ({ remaining, counted, current, sized } = outer);
  }
}

/** Keywords whose value is data, never a schema. */
const dataKeywords = new Set(['enum', 'const', 'default', 'examples']);

/**
 * A copy of `schema` with {@link VISIT_KEYWORD} beside every `$ref` and on every object branch
 * of `anyOf`/`oneOf`; nothing moves, so every JSON pointer still names the same subschema. Walked
 * with an explicit stack (no depth limit: a node left uncounted would be a way around the
 * budget); a node shared by two parents is copied once. @internal
 */
export function countingCopy(schema: JsonSchema): JsonSchema {
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const copyOf = (node: object): Record<string, unknown> | unknown[] => {
    let copy = copies.get(node);
    if (copy === undefined) {
      copy = Array.isArray(node) ? [] : {};
      copies.set(node, copy);
      stack.push([node, copy]);
    }
    return copy;
  };
  const stack: [object, Record<string, unknown> | unknown[]][] = [];
  const root = copyOf(schema) as JsonSchema;
  const branches = new Set<object>();
  while (stack.length > 0) {
    const [node, copy] = stack.pop() as [object, Record<string, unknown> | unknown[]];
    if (Array.isArray(node)) {
      const list = copy as unknown[];
      for (const item of node) list.push(typeof item === 'object' && item !== null ? copyOf(item) : item);
      continue;
    }
    const record = node as Record<string, unknown>;
    const target = copy as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (dataKeywords.has(key) || typeof value !== 'object' || value === null) target[key] = value;
      else target[key] = copyOf(value);
      if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
        for (const branch of value)
          if (typeof branch === 'object' && branch !== null && !Array.isArray(branch)) branches.add(branch);
      }
    }
    if (typeof record.$ref === 'string' || typeof record.$dynamicRef === 'string' || record.$recursiveRef !== undefined)
      target[VISIT_KEYWORD] = true;
  }
  for (const branch of branches) (copies.get(branch) as Record<string, unknown>)[VISIT_KEYWORD] = true;
  return root;
}
