import type { ToolSchema } from '@tiny/llm';
import type { JsonSchema } from '@tiny/tools';

// Keywords whose value is a map from names to schemas: the member order is model-visible (the order
// parameters are listed in), so it is kept as declared; each member schema is canonicalised.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
// Maps of named definitions: their order carries no meaning (referenced by name), so members are
// sorted and the same tool serialises identically whatever order the host inserted them in.
const DEFINITION_MAPS = new Set(['$defs', 'definitions']);
// Keywords whose value is one schema.
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'items',
  'contentSchema',
]);
// Keywords whose value is a list of schemas (`items` may be one in draft-04 to 2019-09).
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Code-unit order: the same in every process and locale.
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A JSON Schema with its keyword keys in one fixed order (sorted by UTF-16 code unit) at every
 * schema level, so a schema written with another key order (raw JSON Schema, an MCP server's
 * `inputSchema`, a re-parsed listing) is sent with the same bytes. The member order of `properties`
 * and the other name-to-schema maps is kept as declared (the model sees it); `$defs`/`definitions`
 * members and `discriminator` keys are sorted (their order means nothing); the values of data keywords (`enum`, `const`, `default`, `examples`, `required`) are kept as written. Returns a new object; the
 * argument is not changed.
 */
export function canonicalSchema(schema: JsonSchema): JsonSchema {
  return canonicalNode(schema) as JsonSchema;
}

// OpenAPI `discriminator` (`propertyName`, `mapping`): plain data whose key order means nothing.
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(byCodeUnit)) out[key] = sortedKeys(value[key]);
  return out;
}

function canonicalNode(node: unknown): unknown {
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort(byCodeUnit)) {
    const value = node[key];
    if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
      const members: Record<string, unknown> = {};
      for (const name of Object.keys(value)) members[name] = canonicalNode(value[name]);
      out[key] = members;
    } else if (DEFINITION_MAPS.has(key) && isPlainObject(value)) {
      const members: Record<string, unknown> = {};
      for (const name of Object.keys(value).sort(byCodeUnit)) members[name] = canonicalNode(value[name]);
      out[key] = members;
    } else if (key === 'discriminator' && isPlainObject(value)) out[key] = sortedKeys(value);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(canonicalNode);
    else if (SCHEMA_VALUES.has(key)) out[key] = canonicalNode(value);
    else if (key === 'dependencies' && isPlainObject(value)) {
      // Draft-07 `dependencies`: a name maps to a schema or to a list of names (kept as is).
      const members: Record<string, unknown> = {};
      for (const name of Object.keys(value)) members[name] = canonicalNode(value[name]);
      out[key] = members;
    } else out[key] = value;
  }
  return out;
}

const canonical = new WeakMap<ToolSchema, ToolSchema>();

/**
 * A tool declaration as the model is shown it, canonically: `name`, `description`, `parameters`
 * (see {@link canonicalSchema}), `format` and `outputSchema` (canonical too), in that key order,
 * whatever the declaration's own key order or extra members. Cached per declaration object:
 * declarations are treated as immutable (a changed tool is a new object).
 * @internal
 */
export function canonicalTool(schema: ToolSchema): ToolSchema {
  let out = canonical.get(schema);
  if (out === undefined) {
    out = {
      name: schema.name,
      ...(schema.description === undefined ? {} : { description: schema.description }),
      parameters: canonicalSchema(schema.parameters),
      ...(schema.format === undefined ? {} : { format: schema.format }),
      ...(schema.outputSchema === undefined ? {} : { outputSchema: canonicalSchema(schema.outputSchema) }),
    };
    canonical.set(schema, out);
    // Canonical already: a second pass returns the same object.
    canonical.set(out, out);
  }
  return out;
}

/**
 * What of a declaration reaches the model on the wire, as JSON: name, description, canonical
 * parameters and a non-default format. `outputSchema`, annotations and other members are not sent
 * (code dialects that render an output type write it into the prompt, fingerprinted there).
 * @internal
 */
export function wireToolJson(schema: ToolSchema): string {
  const tool = canonicalTool(schema);
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    format: tool.format === undefined || tool.format.type === 'json' ? undefined : tool.format,
  });
}
