import type { Ajv, ErrorObject } from 'ajv';

/**
 * A canonical JSON text of `value` under JSON Schema equality: object key order does not matter
 * (keys are sorted) and numbers compare by value (`1` and `1.0` are the same number once parsed).
 * Linear in the size of `value`.
 */
function canonical(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
      out.push(JSON.stringify(value));
    } else out.push(value === null ? 'null' : `~${typeof value}:${String(value)}`);
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) out.push(',');
      canonical(value[index], out);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push('{');
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (index > 0) out.push(',');
    out.push(JSON.stringify(key), ':');
    canonical(record[key], out);
  }
  out.push('}');
}

/** The key two items share exactly when they are equal under JSON Schema equality. */
function keyOf(item: unknown): unknown {
  // Primitives are their own key (a Set compares them by value; -0 and 0 are one key).
  if (item === null || typeof item !== 'object') return item;
  const out: string[] = [];
  canonical(item, out);
  return `\u0000${out.join('')}`;
}

/**
 * The first duplicate in `items` as `[earlier, later]` indices, or undefined: each item's canonical
 * JSON goes into a Map, so the check is linear in the size of the array. (ajv's own check compares
 * every pair of non-primitive items: 40,000 objects took a minute of the host's event loop.)
 */
export function findDuplicateItem(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<unknown, number>();
  for (let index = 0; index < items.length; index++) {
    const key = keyOf(items[index]);
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
