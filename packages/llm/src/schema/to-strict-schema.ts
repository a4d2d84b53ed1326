import type { JsonSchema } from '@tiny/tools';
import { isRecord, mapSubschemas, setOwn } from './map-subschemas.js';
import { allowsNull } from './schema-shape.js';

const scalarTypes: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const annotations = ['description', 'title', 'default'] as const;

/**
 * Rewrites a schema for providers that enforce schemas while decoding (OpenAI strict mode):
 * every object lists all its properties in `required` and gets `additionalProperties: false`,
 * recursively through `properties`, `items`, `prefixItems`, `anyOf`/`oneOf`/`allOf` and
 * `$defs`/`definitions`. A property that was optional and did not admit `null` is made nullable
 * so the model can still leave it out by sending `null`: scalar types get `"null"` added to their
 * `type` (and to their `enum`), anything else is wrapped as `anyOf: [schema, {type: "null"}]`
 * with `description`/`title`/`default` moved onto the wrapper.
 *
 * This narrows open objects: a free-form object (no `properties`) or a map
 * (`additionalProperties: {...}`) admits only `{}` afterwards. Validate the model's answer against
 * the declared schema after {@link fromStrictValue}, never against this one. Pure: the input is
 * not changed.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema {
  const root: unknown = schema;
  const strict = (node: unknown): unknown => {
    if (!isRecord(node)) return node;
    const out = mapSubschemas(node, strict);
    if (!describesObject(out)) return out;
    const properties = isRecord(out.properties) ? out.properties : {};
    const required = new Set(Array.isArray(out.required) ? out.required : []);
    const original = isRecord(node.properties) ? node.properties : {};
    const strictProperties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      const optional = !required.has(name) && !allowsNull(original[name], root);
      setOwn(strictProperties, name, optional ? makeNullable(property) : property);
    }
    return { ...out, properties: strictProperties, required: Object.keys(properties), additionalProperties: false };
  };
  const result = strict(schema);
  return isRecord(result) ? result : {};
}

function describesObject(node: Record<string, unknown>): boolean {
  const type = node.type;
  if (type === 'object') return true;
  if (Array.isArray(type)) return type.includes('object');
  return type === undefined && isRecord(node.properties);
}

function makeNullable(schema: unknown): unknown {
  if (schema === false) return { type: 'null' };
  if (!isRecord(schema)) return schema;
  const type = schema.type;
  const composite =
    '$ref' in schema || 'anyOf' in schema || 'oneOf' in schema || 'allOf' in schema || 'const' in schema;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (types !== undefined && !composite && types.every((name) => scalarTypes.has(name))) {
    const withNull = types.includes('null') ? types : [...types, 'null'];
    const out: Record<string, unknown> = { ...schema, type: withNull };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf) && Object.keys(schema).every((key) => key === 'anyOf' || isAnnotation(key))) {
    return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  const wrapper: Record<string, unknown> = {};
  const inner: Record<string, unknown> = { ...schema };
  for (const key of annotations) {
    if (key in inner) {
      wrapper[key] = inner[key];
      delete inner[key];
    }
  }
  return { ...wrapper, anyOf: [inner, { type: 'null' }] };
}

function isAnnotation(key: string): boolean {
  return (annotations as readonly string[]).includes(key);
}
