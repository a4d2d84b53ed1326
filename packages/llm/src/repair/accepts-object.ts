import type { JsonSchema } from '@tiny/tools';
import { isPlainObject } from './is-plain-object.js';

const OBJECT_KEYWORDS = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
];

/**
 * Whether a tool's parameter schema describes an object, so that object-shape repairs (decoding a
 * string, unwrapping an envelope, replacing a non-object) are meaningful for it. True when `type` is
 * or includes `"object"`, when an untyped schema uses object keywords (`properties`, `required`,
 * ...), or when some `anyOf`/`oneOf`/`allOf` member does.
 *
 * An empty schema (`{}`) returns false: it accepts primitives too, and such schemas must never be
 * rewritten.
 */
export function acceptsObject(schema: JsonSchema): boolean {
  const { type } = schema;
  if (typeof type === 'string') return type === 'object';
  if (Array.isArray(type)) return type.includes('object');
  if (OBJECT_KEYWORDS.some((keyword) => keyword in schema)) return true;
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const members = schema[keyword];
    if (Array.isArray(members) && members.some((member) => isPlainObject(member) && acceptsObject(member))) {
      return true;
    }
  }
  return false;
}
