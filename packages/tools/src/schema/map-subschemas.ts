/** True for a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords whose value is one subschema. */
export const SINGLE_SUBSCHEMA_KEYWORDS = [
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
/** Keywords whose value is a list of subschemas (`items` as a tuple, too). */
export const LIST_SUBSCHEMA_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas (the names are data, never keywords). */
export const MAP_SUBSCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;

function isSchema(value: unknown): boolean {
  return typeof value === 'boolean' || isRecord(value);
}

/**
 * Returns a shallow copy of `schema` with every direct subschema replaced by `map(subschema)`:
 * `properties`, `patternProperties`, `$defs`, `definitions`, `dependentSchemas` (map values only;
 * property names are never read as keywords), `items` (schema or tuple), `prefixItems`, `allOf`,
 * `anyOf`, `oneOf`, `additionalProperties`, `not`, `if`/`then`/`else` and the other applicators.
 * Data keywords (`enum`, `const`, `default`, `examples`) are never visited. The input is not changed.
 * The one subschema walker of the workspace: schema cleaning, projection and host-annotation
 * stripping all recurse through it, so none of them misses an applicator another one knows.
 */
export function mapSubschemas(
  schema: Record<string, unknown>,
  map: (subschema: unknown) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  for (const key of SINGLE_SUBSCHEMA_KEYWORDS) {
    const value = schema[key];
    if (isSchema(value)) out[key] = map(value);
  }
  for (const key of LIST_SUBSCHEMA_KEYWORDS) {
    const value = schema[key];
    if (Array.isArray(value)) out[key] = value.map((entry) => (isSchema(entry) ? map(entry) : entry));
  }
  for (const key of MAP_SUBSCHEMA_KEYWORDS) {
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
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
