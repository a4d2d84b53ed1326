import type { Ajv, ErrorObject } from 'ajv';
import { chargeVisits, NODE_UNIT, runScoped } from './branch-budget.js';

/**
 * Interned keys of values under JSON Schema equality: two values get the same number exactly when
 * they are equal (object key order does not matter, numbers compare by value). A composite value's
 * key is built from its children's numbers, so nested values are keyed in time linear in their size
 * even when each level is checked again (a `uniqueItems` array inside a `uniqueItems` array).
 */
interface Interner {
  /** Tagged canonical text (`s` string, `n` number, `a` array, `o` object, ...) to its number. */
  readonly ids: Map<string, number>;
  /** Numbers of arrays and objects already keyed. */
  readonly composites: WeakMap<object, number>;
}

const INTERNER = Symbol('tiny.validation.uniqueItems');
const newInterner = (): Interner => ({ ids: new Map(), composites: new WeakMap() });

function intern(interner: Interner, text: string): number {
  let id = interner.ids.get(text);
  if (id === undefined) {
    id = interner.ids.size;
    interner.ids.set(text, id);
  }
  return id;
}

/**
 * The tagged canonical text of a primitive: the first character says the type, so a string can
 * never share a key with a number, an array or an object (`"\u0000[1]"` and `[1]` differ).
 */
function primitiveText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      chargeVisits(Math.floor(value.length / NODE_UNIT));
      return `s${value}`;
    case 'number':
      // -0 and 0 are the same number; 1 and 1.0 are one number once parsed.
      return `n${value === 0 ? 0 : value}`;
    case 'boolean':
      return value ? 't' : 'f';
    default:
      return value === null ? 'z' : `x${typeof value}:${String(value)}`;
  }
}

/** The number of `value` (iterative: a deep value cannot overflow the stack). */
function keyOf(interner: Interner, value: unknown): number {
  if (typeof value !== 'object' || value === null) return intern(interner, primitiveText(value));
  const known = interner.composites.get(value);
  if (known !== undefined) return known;
  // Post-order walk: a composite is keyed once all its children are.
  const stack: [object, boolean][] = [[value, false]];
  // Nodes whose children are being keyed: meeting one again is a cycle (not JSON).
  const open = new WeakSet<object>();
  while (stack.length > 0) {
    const [node, expanded] = stack.pop() as [object, boolean];
    if (interner.composites.has(node)) continue;
    if (!expanded) {
      if (open.has(node)) throw new RangeError('uniqueItems: the value refers to itself');
      open.add(node);
    }
    const children = Array.isArray(node)
      ? node
      : Object.keys(node)
          .sort()
          .map((key) => (node as Record<string, unknown>)[key]);
    if (!expanded) {
      stack.push([node, true]);
      for (const child of children)
        if (typeof child === 'object' && child !== null && !interner.composites.has(child)) stack.push([child, false]);
      continue;
    }
    chargeVisits(1 + Math.floor(children.length / NODE_UNIT));
    const parts: string[] = [];
    const keys = Array.isArray(node) ? undefined : Object.keys(node).sort();
    for (let index = 0; index < children.length; index++) {
      const child = children[index];
      const id =
        typeof child === 'object' && child !== null
          ? (interner.composites.get(child) as number)
          : intern(interner, primitiveText(child));
      parts.push(keys === undefined ? String(id) : `${JSON.stringify(keys[index])}:${id}`);
    }
    interner.composites.set(node, intern(interner, `${keys === undefined ? 'a' : 'o'}${parts.join(',')}`));
  }
  return interner.composites.get(value) as number;
}

/**
 * The first duplicate in `items` as `[earlier, later]` indices, or undefined: each item's interned
 * key goes into a Map, so the check is linear in the size of the array. (ajv's own check compares
 * every pair of non-primitive items: 40,000 objects took a minute of the host's event loop.) Each
 * item and each newly keyed node is charged to the running validation's visit budget.
 */
export function findDuplicateItem(items: readonly unknown[]): [number, number] | undefined {
  const interner = runScoped(INTERNER, newInterner);
  const seen = new Map<number, number>();
  for (let index = 0; index < items.length; index++) {
    chargeVisits(1);
    const key = keyOf(interner, items[index]);
    const earlier = seen.get(key);
    if (earlier !== undefined) return [earlier, index];
    seen.set(key, index);
  }
  return undefined;
}

/**
 * Replaces ajv's `uniqueItems` with {@link findDuplicateItem}, reporting ajv's issue (keyword
 * `uniqueItems`, params `{ i, j }`, the same message). Every other ajv keyword is linear in its
 * data (or bounded by the schema): `uniqueItems` on non-primitive items was the only pairwise one.
 */
export function useLinearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword('uniqueItems');
  const validate = (schema: unknown, data: unknown): boolean => {
    validate.errors = undefined;
    if (schema !== true || !Array.isArray(data)) return true;
    const duplicate = findDuplicateItem(data);
    if (duplicate === undefined) return true;
    const [j, i] = duplicate;
    validate.errors = [
      {
        keyword: 'uniqueItems',
        params: { i, j },
        message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
      },
    ];
    return false;
  };
  validate.errors = undefined as Partial<ErrorObject>[] | undefined;
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate });
}
