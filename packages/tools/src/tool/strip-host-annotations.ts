import { isRecord, mapSubschemas } from '../schema/map-subschemas.js';
import type { JsonSchema } from '../validation/json-schema.js';

/** The prefix of the schema keywords tiny reads on the host side (`x-tiny-sensitive`, ...). */
export const HOST_ANNOTATION_PREFIX = 'x-tiny-';

function strip(node: unknown, depth: number): unknown {
  if (!isRecord(node) || depth > 64) return node;
  const out = mapSubschemas(node, (child) => strip(child, depth + 1));
  for (const key of Object.keys(out)) if (key.startsWith(HOST_ANNOTATION_PREFIX)) delete out[key];
  return out;
}

/**
 * `schema` without tiny's host-side annotations (`x-tiny-*` keywords, such as `x-tiny-sensitive`)
 * at any depth: they steer redaction and other host behaviour, and are nothing the model may
 * choose, so they never reach a request. Property names, `enum`, `const`, `default` and
 * `examples` values are data and left alone. Returns `schema` itself when it has no annotation;
 * otherwise a copy (the input is not changed).
 */
export function stripHostAnnotations(schema: JsonSchema): JsonSchema {
  if (!JSON.stringify(schema).includes(`"${HOST_ANNOTATION_PREFIX}`)) return schema;
  return strip(schema, 0) as JsonSchema;
}
