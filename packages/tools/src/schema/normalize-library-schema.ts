import type { JsonSchema } from '../validation/json-schema.js';

/** Keywords first in this order; any other keyword follows in the order the library wrote it. */
const keywordOrder = [
  'type',
  'title',
  'description',
  'const',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  'default',
  'examples',
  '$defs',
  'definitions',
];
const rank = new Map(keywordOrder.map((keyword, index) => [keyword, index]));
const dataKeywords = new Set(['const', 'enum', 'default', 'examples']);
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function normalizeNode(node: unknown, depth: number): unknown {
  if (depth > 256 || typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map((item) => normalizeNode(item, depth + 1));
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record).sort(
    (a, b) => (rank.get(a) ?? keywordOrder.length) - (rank.get(b) ?? keywordOrder.length),
  );
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = record[key];
    if (dataKeywords.has(key)) out[key] = value;
    else if (schemaMaps.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(value)) map[name] = normalizeNode(child, depth + 1);
      out[key] = map;
    } else out[key] = normalizeNode(value, depth + 1);
  }
  // `{ enum: ['a', 'b'] }` and `{ type: 'string', enum: [...] }` mean the same; say the type, as
  // most libraries and providers do.
  if (out.type === undefined && Array.isArray(out.enum) && out.enum.length > 0) {
    const types = new Set(out.enum.map((value) => (value === null ? 'null' : typeof value)));
    if (types.size === 1 && (types.has('string') || types.has('boolean'))) {
      return { type: [...types][0], ...out };
    }
  }
  return out;
}

/**
 * Makes a library-generated JSON Schema stable and comparable: drops the root `$schema` (draft
 * 2020-12 was asked for; it is our default dialect), orders keywords canonically inside each
 * schema (property order is kept: it is the author's), and gives a one-type `enum` its `type`.
 * Meaning is unchanged. Returns a new object.
 *
 * @internal
 */
export function normalizeLibrarySchema(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return normalizeNode(rest, 0) as JsonSchema;
}
