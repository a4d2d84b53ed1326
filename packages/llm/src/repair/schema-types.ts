import type { JsonSchema } from '@tiny/tools';
import { isPlainObject } from './is-plain-object.js';

function ownTypes(schema: JsonSchema): string[] | undefined {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((entry) => typeof entry === 'string')) return type as string[];
  return undefined;
}

function unionMembers(schema: JsonSchema): JsonSchema[] | undefined {
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (members === undefined || members.length === 0 || !members.every(isPlainObject)) return undefined;
  return members as JsonSchema[];
}

/**
 * The JSON types a schema declares: its `type` (a string or an array of strings), or, when it has
 * none, the union of the `type`s of its `anyOf`/`oneOf` members (`Type.Union([Type.Integer(),
 * Type.Null()])`). `undefined` when the schema does not say, including when one member is untyped.
 * @internal
 */
export function schemaTypes(schema: JsonSchema): string[] | undefined {
  const own = ownTypes(schema);
  if (own !== undefined) return own;
  const members = unionMembers(schema);
  if (members === undefined) return undefined;
  const types: string[] = [];
  for (const member of members) {
    const memberTypes = ownTypes(member);
    if (memberTypes === undefined) return undefined;
    types.push(...memberTypes);
  }
  return types;
}

/**
 * The schema describing values of JSON type `type`: the schema itself when its own `type` allows
 * it, else the first `anyOf`/`oneOf` member that does.
 * @internal
 */
export function schemaForType(schema: JsonSchema, type: string): JsonSchema {
  if (ownTypes(schema)?.includes(type)) return schema;
  return unionMembers(schema)?.find((member) => ownTypes(member)?.includes(type)) ?? schema;
}
