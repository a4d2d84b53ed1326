import {
  applySchemaTransform,
  type LanguageModelV1CallWarning,
  type LanguageModelV1ResponseFormat,
  type ModelProfile,
  toStrictSchema,
} from '@tiny/llm';

/** The permissive schema local servers get for JSON mode instead of `json_object`. @internal */
export const PERMISSIVE_JSON_FORMAT = {
  type: 'json_schema',
  json_schema: { name: 'json_object', schema: { type: 'object' }, strict: false },
} as const;

/** The `response_format` to send, and whether it went out as `json_object`. @internal */
export interface WireResponseFormat {
  readonly value: unknown;
  readonly jsonObjectSent: boolean;
}

function jsonMode(jsonObjectFormat: boolean): WireResponseFormat {
  return jsonObjectFormat
    ? { value: { type: 'json_object' }, jsonObjectSent: true }
    : { value: PERMISSIVE_JSON_FORMAT, jsonObjectSent: false };
}

/**
 * Maps the response format (P3). `text` or none: nothing sent. `json`: `json_object`, or the
 * permissive `json_schema` when `jsonObjectFormat` is off. `json_schema`: the schema after the
 * profile's transform and, when `strict` is set, `toStrictSchema` (every property required,
 * optional ones nullable, `additionalProperties: false`), with `strict` passed through.
 * A profile with `structuredOutput: 'json_object'` gets JSON mode for a schema request (with a
 * warning that the schema is not enforced); one with `'none'` gets nothing (with a warning).
 * @internal
 */
export function toWireResponseFormat(
  format: LanguageModelV1ResponseFormat | undefined,
  options: { readonly profile: ModelProfile; readonly jsonObjectFormat: boolean },
  warnings: LanguageModelV1CallWarning[],
): WireResponseFormat | undefined {
  if (format === undefined || format.type === 'text') return undefined;
  const { profile } = options;
  if (profile.structuredOutput === 'none') {
    warnings.push({
      type: 'unsupported_setting',
      setting: 'responseFormat',
      details: 'the model profile has no structured output',
    });
    return undefined;
  }
  if (format.type === 'json') return jsonMode(options.jsonObjectFormat);
  if (profile.structuredOutput === 'json_object') {
    warnings.push({
      type: 'unsupported_setting',
      setting: 'responseFormat',
      details: 'the model takes JSON mode only; the schema is not enforced',
    });
    return jsonMode(options.jsonObjectFormat);
  }
  const transformed =
    profile.schemaTransform === undefined
      ? format.schema
      : applySchemaTransform(format.schema, profile.schemaTransform);
  const schema = format.strict === true ? toStrictSchema(transformed) : transformed;
  const jsonSchema = {
    name: format.name,
    ...(format.description === undefined ? {} : { description: format.description }),
    schema,
    ...(format.strict === undefined ? {} : { strict: format.strict }),
  };
  return { value: { type: 'json_schema', json_schema: jsonSchema }, jsonObjectSent: false };
}
