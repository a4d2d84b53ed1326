import type { JsonSchema } from '@tiny/tools';
import { isPlainObject } from '../repair/is-plain-object.js';
import { schemaTypes } from '../repair/schema-types.js';
import { resolveLocalRef } from '../schema/resolve-local-ref.js';

/** `$ref` hops followed at most while resolving one subschema (a cycle of refs stops here). */
const MAX_REF_HOPS = 16;

/**
 * `schema` with its local `$ref` followed inside `root` (siblings of the `$ref` are dropped: the
 * target describes the value). An unresolvable reference yields `undefined` ("unknown").
 * @internal
 */
export function resolveAnswerSchema(root: JsonSchema, schema: unknown): JsonSchema | undefined {
  let node = schema;
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    if (!isPlainObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== 'string') return node as JsonSchema;
    node = resolveLocalRef(root, ref);
  }
  return undefined;
}

/** The `anyOf`/`oneOf` members of a schema, resolved; `undefined` when it has none. @internal */
export function unionMembers(root: JsonSchema, schema: JsonSchema): JsonSchema[] | undefined {
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (members === undefined || members.length === 0) return undefined;
  const resolved: JsonSchema[] = [];
  for (const member of members) {
    const schemaOfMember = resolveAnswerSchema(root, member);
    if (schemaOfMember !== undefined) resolved.push(schemaOfMember);
  }
  return resolved;
}

/**
 * The JSON types `schema` allows, following union members; `undefined` when it does not say. A
 * member that leads back to a schema already being followed (`anyOf: [..., {$ref: '#'}]`) adds
 * no types of its own. @internal
 */
export function answerTypes(
  root: JsonSchema,
  schema: JsonSchema | undefined,
  following: Set<object> = new Set(),
): string[] | undefined {
  if (schema === undefined) return undefined;
  if (following.has(schema)) return [];
  const own = schemaTypes(schema);
  if (own !== undefined) return own;
  if (isPlainObject(schema.properties)) return ['object'];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonTypeOf))];
  if ('const' in schema) return [jsonTypeOf(schema.const)];
  const members = unionMembers(root, schema);
  if (members === undefined) return undefined;
  const types: string[] = [];
  following.add(schema);
  for (const member of members) {
    const memberTypes = answerTypes(root, member, following);
    if (memberTypes === undefined) {
      following.delete(schema);
      return undefined;
    }
    types.push(...memberTypes);
  }
  following.delete(schema);
  return types;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : typeof value;
}

/** Whether the schema says a string may stand here (its types include `string`). @internal */
export function acceptsString(root: JsonSchema, schema: JsonSchema | undefined): boolean {
  return answerTypes(root, schema)?.includes('string') === true;
}

/** The first member of a union (or the schema itself) that describes objects / arrays. */
function memberFor(root: JsonSchema, schema: JsonSchema, type: 'object' | 'array'): JsonSchema {
  const own = schemaTypes(schema);
  if (own?.includes(type) || (type === 'object' && isPlainObject(schema.properties))) return schema;
  const members = unionMembers(root, schema) ?? [];
  return members.find((member) => answerTypes(root, member)?.includes(type)) ?? schema;
}

/**
 * The schema of property `key` of an object described by `schema`: its `properties` entry, else a
 * schema-valued `additionalProperties`; `undefined` when the schema does not say.
 * @internal
 */
export function propertySchema(root: JsonSchema, schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  // In a union of objects, the member that declares `key` says what it is.
  const declaring = unionMembers(root, schema)?.find(
    (member) => isPlainObject(member.properties) && Object.hasOwn(member.properties, key),
  );
  const objectSchema = declaring ?? memberFor(root, schema, 'object');
  const properties = objectSchema.properties;
  if (isPlainObject(properties) && Object.hasOwn(properties, key)) return resolveAnswerSchema(root, properties[key]);
  const additional = objectSchema.additionalProperties;
  return isPlainObject(additional) ? resolveAnswerSchema(root, additional) : undefined;
}

/** Whether an object schema declares `key` (in `properties`, or a `patternProperties` entry exists). @internal */
export function declaresProperty(schema: JsonSchema, key: string): boolean {
  const properties = schema.properties;
  if (isPlainObject(properties) && Object.hasOwn(properties, key)) return true;
  return isPlainObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0;
}

/** The schema of item `index` of an array described by `schema` (`prefixItems`, then `items`). @internal */
export function itemSchema(root: JsonSchema, schema: JsonSchema | undefined, index: number): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const arraySchema = memberFor(root, schema, 'array');
  const { prefixItems, items } = arraySchema;
  if (Array.isArray(prefixItems)) {
    if (index < prefixItems.length) return resolveAnswerSchema(root, prefixItems[index]);
    return resolveAnswerSchema(root, items);
  }
  if (Array.isArray(items)) return resolveAnswerSchema(root, items[index]);
  return resolveAnswerSchema(root, items);
}
