import type { JsonSchema } from '@tiny/tools';
import { inlineLocalRefs } from './inline-local-refs.js';
import { isRecord, mapSubschemas } from './map-subschemas.js';

/**
 * Which provider's JSON Schema subset to project onto.
 * - `openai`: removes no keyword and keeps `$ref`/`$defs` as written.
 * - `anthropic`: inlines local references, then removes `$ref`, `$defs`, `definitions`.
 * - `gemini`: inlines references and removes `$ref`, `$defs`, `definitions`, `$id`, `$schema`
 *   and the other `$` keywords, `additionalProperties`, `patternProperties`, every string, number,
 *   array and object facet (`minLength`, `pattern`, `minimum`, `multipleOf`, `minItems`,
 *   `uniqueItems`, `minProperties`, ...), `format` and `examples`; strips `null` variants
 *   (from type lists, `anyOf`/`oneOf` branches and enums) and marks the schema `nullable: true`.
 * - `conservative` (the default): inlines references, removes `$ref`, `$defs`, `definitions`,
 *   `additionalProperties`.
 */
export type SchemaCleaningStrategy = 'openai' | 'anthropic' | 'gemini' | 'conservative';

const refKeywords = ['$ref', '$defs', 'definitions'];
const geminiKeywords = [
  ...refKeywords,
  '$id',
  '$schema',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$comment',
  '$vocabulary',
  'additionalProperties',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'contentEncoding',
  'contentMediaType',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'additionalItems',
  'unevaluatedItems',
  'examples',
];

const removedKeywords: Record<SchemaCleaningStrategy, ReadonlySet<string>> = {
  openai: new Set(),
  anthropic: new Set(refKeywords),
  gemini: new Set(geminiKeywords),
  conservative: new Set([...refKeywords, 'additionalProperties']),
};

/**
 * Projects a schema onto what a provider accepts, without changing what it means where that can
 * be helped; when a keyword must go the schema gets wider (accepts more), never narrower. Steps,
 * at every subschema: local `$ref`s are inlined (all strategies but `openai`; recursion is cut to
 * `{}`), `const` becomes a one-value `enum`, an `anyOf`/`oneOf` whose branches are all literals
 * (`const`, `enum` or `{type: "null"}`) becomes one `enum` (with `type` when the values agree),
 * Gemini's null stripping runs, then the strategy's keywords are removed. `description`, `title`
 * and `default` are always kept, and property names are never mistaken for keywords. Pure: the
 * input is not changed.
 */
export function cleanSchema(schema: JsonSchema, strategy: SchemaCleaningStrategy = 'conservative'): JsonSchema {
  const start = strategy === 'openai' ? schema : inlineLocalRefs(schema);
  const removed = removedKeywords[strategy];
  const gemini = strategy === 'gemini';

  const clean = (node: unknown): unknown => {
    if (node === true && gemini) return {};
    if (!isRecord(node)) return node;
    let out = constToEnum(node);
    out = flattenLiteralUnion(out, 'anyOf', gemini);
    out = flattenLiteralUnion(out, 'oneOf', gemini);
    if (gemini) out = stripNullVariants(out);
    for (const key of removed) delete out[key];
    return mapSubschemas(out, clean);
  };

  const result = clean(start);
  return isRecord(result) ? result : {};
}

function constToEnum(node: Record<string, unknown>): Record<string, unknown> {
  if (!('const' in node)) return { ...node };
  const { const: value, ...rest } = node;
  if (Array.isArray(rest.enum))
    return rest.enum.some((entry) => sameJson(entry, value)) ? { ...rest, enum: [value] } : { ...rest, enum: [] };
  const inferred = inferType([value]);
  return { ...(rest.type === undefined && inferred !== undefined ? { type: inferred } : {}), ...rest, enum: [value] };
}

function literalValues(branch: unknown): unknown[] | undefined {
  if (!isRecord(branch)) return undefined;
  const allowed = new Set(['const', 'enum', 'type', 'description', 'title']);
  if (!Object.keys(branch).every((key) => allowed.has(key))) return undefined;
  if ('const' in branch) return [branch.const];
  if (Array.isArray(branch.enum)) return branch.enum;
  if (branch.type === 'null') return [null];
  return undefined;
}

function flattenLiteralUnion(
  node: Record<string, unknown>,
  key: 'anyOf' | 'oneOf',
  gemini: boolean,
): Record<string, unknown> {
  const branches = node[key];
  if (!Array.isArray(branches) || branches.length === 0 || 'enum' in node) return node;
  const values: unknown[] = [];
  for (const branch of branches) {
    const literals = literalValues(branch);
    if (literals === undefined) return node;
    for (const value of literals) if (!values.some((seen) => sameJson(seen, value))) values.push(value);
  }
  const { [key]: _branches, ...rest } = node;
  const inferred = gemini ? inferType(values.filter((value) => value !== null)) : inferType(values, true);
  return { ...(rest.type === undefined && inferred !== undefined ? { type: inferred } : {}), ...rest, enum: values };
}

function stripNullVariants(node: Record<string, unknown>): Record<string, unknown> {
  let out = node;
  let nullable = false;
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const types = out.type.filter((type) => type !== 'null');
    nullable = true;
    const { type: _type, ...rest } = out;
    if (types.length === 1) out = { ...rest, type: types[0] };
    else if (types.length > 1 && !('anyOf' in rest)) out = { ...rest, anyOf: types.map((type) => ({ type })) };
    else out = rest;
  }
  if (Array.isArray(out.enum) && out.enum.includes(null)) {
    out = { ...out, enum: out.enum.filter((value) => value !== null) };
    nullable = true;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = out[key];
    if (!Array.isArray(branches)) continue;
    const kept = branches.filter((branch) => !(isRecord(branch) && branch.type === 'null'));
    if (kept.length === branches.length || kept.length === 0) continue;
    nullable = true;
    const { [key]: _branches, ...rest } = out;
    const only = kept[0];
    if (kept.length === 1 && isRecord(only)) {
      // The parent's own keywords (description, title, default) win over the branch's.
      out = { ...only, ...rest };
    } else {
      out = { ...rest, [key]: kept };
    }
  }
  return nullable ? { ...out, nullable: true } : out;
}

function inferType(values: readonly unknown[], allowList = false): string | string[] | undefined {
  const types = new Set<string>();
  for (const value of values) {
    if (value === null) types.add('null');
    else if (typeof value === 'string' || typeof value === 'boolean') types.add(typeof value);
    else if (typeof value === 'number') types.add(Number.isInteger(value) ? 'integer' : 'number');
    else return undefined;
  }
  if (types.has('integer') && types.has('number')) types.delete('integer');
  const list = [...types];
  if (list.length === 1) return list[0];
  return allowList && list.length > 1 ? list : undefined;
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
