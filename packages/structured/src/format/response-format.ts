import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type JsonSchema, resolveSchema, type ToolSchemaInput } from '@tiny/tools';
import type { InferResponse, ResponseSchema } from './response-schema.js';

/** How structured output is obtained from the model. */
export type StructuredStrategy = 'provider' | 'tool' | 'prompted';

/** Which factory built a {@link ResponseFormat}: `auto` picks a strategy from the model profile. */
export type ResponseFormatKind = 'auto' | 'provider' | 'tool' | 'prompted' | 'json_schema';

/**
 * A request for structured output whose parsed value has type `TOutput`. Build one with the
 * `ResponseFormat` factories; it is plain data and can be reused across runs.
 */
export interface ResponseFormat<TOutput = unknown> {
  readonly kind: ResponseFormatKind;
  readonly schema: ResponseSchema<JsonSchema>;
  /** The prompted strategy's instruction text, placed before the schema in a system message. */
  readonly template?: string | undefined;
  /**
   * The Standard Schema the JSON Schema in `schema.schema` was derived from, when one was given:
   * its `validate` runs after ajv has accepted the answer, and its output is the parsed value.
   */
  readonly standard?: StandardSchemaV1 | undefined;
  /** Type-level only: the parsed value's type. Never set at runtime. */
  readonly '~output'?: TOutput | undefined;
}

function build<TOutput>(
  kind: ResponseFormatKind,
  schema: ResponseSchema<ToolSchemaInput>,
  template?: string,
): ResponseFormat<TOutput> {
  const { name, description, strict } = schema;
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new TypeError(`response schema name must be 1-64 letters, digits, "_" or "-"; got ${JSON.stringify(name)}`);
  }
  const resolved = resolveSchema(schema.schema, 'input');
  const plain: ResponseSchema<JsonSchema> = {
    name,
    schema: resolved.jsonSchema,
    ...(description === undefined ? {} : { description }),
    ...(strict === undefined ? {} : { strict }),
  };
  return {
    kind,
    schema: plain,
    ...(template === undefined ? {} : { template }),
    ...(resolved.standard === undefined ? {} : { standard: resolved.standard }),
  };
}

/**
 * Factories for {@link ResponseFormat}. A TypeBox `schema` gives a statically typed `parsed`
 * value; a raw JSON Schema gives `unknown` (or name the type with `jsonSchema<T>(...)`).
 *
 * @throws {TypeError} when the schema name is not 1-64 letters, digits, `_` or `-`.
 * @throws {SchemaCompileFailure} for a Zod 3 schema, a validation-only Standard Schema, or one
 * the library cannot describe as JSON Schema.
 */
export const ResponseFormat = {
  /**
   * Picks the strategy from the model profile: a profile whose `defaultStructuredMode` is
   * `prompted` gets `prompted`; one that prefers `tool` and calls tools gets `tool`; otherwise
   * `provider` when the profile declares native `json_schema` output, else `tool` when the model
   * calls tools, else `prompted`. At run time, a provider that rejects the native response
   * format (HTTP 400 naming `response_format`/schema) makes it fall back to `tool`, then to
   * `prompted`, once each.
   */
  auto<const TSchemaType extends ToolSchemaInput>(
    schema: ResponseSchema<TSchemaType>,
  ): ResponseFormat<InferResponse<TSchemaType>> {
    return build('auto', schema);
  },
  /** The provider's native response format (`json_schema`), the answer parsed from the text. */
  provider<const TSchemaType extends ToolSchemaInput>(
    schema: ResponseSchema<TSchemaType>,
  ): ResponseFormat<InferResponse<TSchemaType>> {
    return build('provider', schema);
  },
  /**
   * An artificial output tool whose arguments are the answer; it never executes. A root
   * `anyOf`/`oneOf` gives one tool per variant (`<name>_<variant>`, the variant named by its
   * `title` or `option_<n>`), and the chosen variant is recorded.
   */
  tool<const TSchemaType extends ToolSchemaInput>(
    schema: ResponseSchema<TSchemaType>,
  ): ResponseFormat<InferResponse<TSchemaType>> {
    return build('tool', schema);
  },
  /**
   * The schema goes into a system message (`template`, then the pretty-printed schema) and the
   * answer is parsed from the text: for models with neither native output nor tool calling.
   */
  prompted<const TSchemaType extends ToolSchemaInput>(
    schema: ResponseSchema<TSchemaType>,
    template?: string,
  ): ResponseFormat<InferResponse<TSchemaType>> {
    return build('prompted', schema, template);
  },
  /**
   * A bare JSON Schema sent through the provider's native response format (always the provider
   * strategy). `name` defaults to `response`. Give `TOutput` to type a raw schema's value.
   */
  jsonSchema<TOutput = never, const TSchemaType extends ToolSchemaInput = JsonSchema>(
    schema: TSchemaType,
    options: { readonly name?: string; readonly description?: string; readonly strict?: boolean } = {},
  ): ResponseFormat<[TOutput] extends [never] ? InferResponse<TSchemaType> : TOutput> {
    return build('json_schema', { ...options, name: options.name ?? 'response', schema });
  },
};

/** The parsed type of a {@link ResponseFormat}. */
export type InferResponseFormat<TFormat> = TFormat extends ResponseFormat<infer TOutput> ? TOutput : never;
