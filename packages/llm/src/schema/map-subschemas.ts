/** True for a JSON object (not an array, not null). @internal */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const singleKeywords = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
] as const;
const listKeywords = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
const mapKeywords = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

function isSchema(value: unknown): boolean {
  return typeof value === 'boolean' || isRecord(value);
}

/**
 * Returns a shallow copy of `schema` with every direct subschema replaced by `map(subschema)`:
 * `properties`, `patternProperties`, `$defs`, `definitions`, `dependentSchemas` (map values only;
 * property names are never read as keywords), `items` (schema or tuple), `prefixItems`, `allOf`,
 * `anyOf`, `oneOf`, `additionalProperties`, `not`, `if`/`then`/`else` and the other applicators.
 * Data keywords (`enum`, `const`, `default`, `examples`) are never visited. The input is not changed.
 *
 * @internal
 */
export function mapSubschemas(
  schema: Record<string, unknown>,
  map: (subschema: unknown) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  for (const key of singleKeywords) {
    const value = schema[key];
    if (isSchema(value)) out[key] = map(value);
  }
  for (const key of listKeywords) {
    const value = schema[key];
    if (Array.isArray(value)) out[key] = value.map((entry) => (isSchema(entry) ? map(entry) : entry));
  }
  for (const key of mapKeywords) {
    const value = schema[key];
    if (!isRecord(value)) continue;
    const mapped: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(value)) setOwn(mapped, name, isSchema(entry) ? map(entry) : entry);
    out[key] = mapped;
  }
  const dependencies = schema.dependencies;
  if (isRecord(dependencies)) {
    const mapped: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(dependencies))
      setOwn(mapped, name, isRecord(entry) ? map(entry) : entry);
    out.dependencies = mapped;
  }
  return out;
}

/**
 * Sets an own enumerable property, also for the key `__proto__` (which plain assignment would
 * turn into a prototype change).
 *
 * @internal
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
