import type { JsonSchema } from '@tiny/tools';
import { cleanSchema } from './clean-schema.js';
import { inlineLocalRefs } from './inline-local-refs.js';
import { isRecord, mapSubschemas } from './map-subschemas.js';
import { toStrictSchema } from './to-strict-schema.js';

/**
 * A schema rewrite a model profile asks for, as data.
 * - `strip_defs`: inline local `$ref`s, then drop `$ref`, `$defs` and `definitions`.
 * - `inline_refs`: inline local `$ref`s and keep the definition tables.
 * - `no_additional_properties`: remove every `additionalProperties` keyword (widens).
 * - `gemini_compat`: `cleanSchema(schema, 'gemini')`.
 * - `openai_strict`: {@link toStrictSchema}.
 * - `chain`: each transform in order.
 */
export type SchemaTransform =
  | { readonly type: 'strip_defs' }
  | { readonly type: 'inline_refs' }
  | { readonly type: 'no_additional_properties' }
  | { readonly type: 'gemini_compat' }
  | { readonly type: 'openai_strict' }
  | { readonly type: 'chain'; readonly transforms: readonly SchemaTransform[] };

/** Applies a {@link SchemaTransform}. Pure: the input is not changed. */
export function applySchemaTransform(schema: JsonSchema, transform: SchemaTransform): JsonSchema {
  switch (transform.type) {
    case 'strip_defs':
      return removeKeywords(inlineLocalRefs(schema), ['$ref', '$defs', 'definitions']);
    case 'inline_refs':
      return inlineLocalRefs(schema);
    case 'no_additional_properties':
      return removeKeywords(schema, ['additionalProperties']);
    case 'gemini_compat':
      return cleanSchema(schema, 'gemini');
    case 'openai_strict':
      return toStrictSchema(schema);
    case 'chain':
      return transform.transforms.reduce((current, next) => applySchemaTransform(current, next), schema);
  }
}

function removeKeywords(schema: JsonSchema, keywords: readonly string[]): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (!isRecord(node)) return node;
    const rest = { ...node };
    for (const keyword of keywords) delete rest[keyword];
    return mapSubschemas(rest, visit);
  };
  const result = visit(schema);
  return isRecord(result) ? result : {};
}
