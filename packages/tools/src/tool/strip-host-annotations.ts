import type { JsonSchema } from '../validation/json-schema.js';

/** The prefix of the schema keywords tiny reads on the host side (`x-tiny-sensitive`, ...). */
export const HOST_ANNOTATION_PREFIX = 'x-tiny-';

const schemaKeys = [
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
const listKeys = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
const mapKeys = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strip(node: unknown, depth: number): unknown {
  if (!isRecord(node) || depth > 64) return node;
  let out: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => {
    out ??= { ...node };
    out[key] = value;
  };
  for (const key of Object.keys(node)) {
    if (key.startsWith(HOST_ANNOTATION_PREFIX)) {
      out ??= { ...node };
      delete out[key];
    }
  }
  for (const key of schemaKeys) {
    const child = node[key];
    if (isRecord(child)) {
      const next = strip(child, depth + 1);
      if (next !== child) set(key, next);
    }
  }
  for (const key of listKeys) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const next = list.map((entry) => strip(entry, depth + 1));
    if (next.some((entry, index) => entry !== list[index])) set(key, next);
  }
  for (const key of mapKeys) {
    const map = node[key];
    if (!isRecord(map)) continue;
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(map)) {
      next[name] = strip(child, depth + 1);
      if (next[name] !== child) changed = true;
    }
    if (changed) set(key, next);
  }
  return out ?? node;
}

/**
 * `schema` without tiny's host-side annotations (`x-tiny-*` keywords, such as `x-tiny-sensitive`)
 * at any depth: they steer redaction and other host behaviour, and are nothing the model may
 * choose, so they never reach a request. Property names, `enum`, `const`, `default` and
 * `examples` values are data and left alone. Returns `schema` itself when it has no annotation;
 * otherwise a copy (the input is not changed).
 */
export function stripHostAnnotations(schema: JsonSchema): JsonSchema {
  return strip(schema, 0) as JsonSchema;
}
