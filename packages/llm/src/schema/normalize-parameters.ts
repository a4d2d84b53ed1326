import type { JsonSchema } from '@tiny/tools';
import { isRecord } from './map-subschemas.js';

/**
 * Makes a tool's parameters schema acceptable as a function declaration. Anything that is not a
 * JSON object, and the empty object, becomes `{"type":"object","properties":{}}`; a schema with
 * `properties` or `required` but no `type` gets `type: "object"`. Anything else is returned as
 * is. Pure: the input is not changed.
 */
export function normalizeParameters(schema: unknown): JsonSchema {
  if (!isRecord(schema) || Object.keys(schema).length === 0) return { type: 'object', properties: {} };
  if (schema.type === undefined && ('properties' in schema || 'required' in schema)) {
    return { type: 'object', ...schema };
  }
  return schema;
}
