import type { InferSchemaOutput, JsonSchema, ToolSchemaInput } from '@tiny/tools';

/**
 * The schema of a structured answer.
 * - `name` identifies it to the provider and names the tool strategy's output tool (letters,
 *   digits, `_` and `-`; it must not collide with a registered tool).
 * - `schema` is a TypeBox schema (the parsed value is then statically typed), a raw JSON Schema,
 *   or a Standard Schema with a JSON Schema side (Zod ≥ 4.2, ArkType, Valibot through
 *   `toStandardJsonSchema()`): the model sees its JSON Schema (input side), ajv checks the answer
 *   against it first, then the library's own `validate` runs and its output is the parsed value.
 * - `strict` asks for strict decoding: the wire schema goes through `toStrictSchema` (every
 *   property required, optional ones nullable, `additionalProperties: false`) and the value
 *   through `fromStrictValue` before it is validated against the declared `schema`.
 */
export interface ResponseSchema<TSchemaType extends ToolSchemaInput = JsonSchema> {
  readonly name: string;
  /** Shown to the model (tool description, provider schema description). */
  readonly description?: string | undefined;
  readonly schema: TSchemaType;
  /** Strict decoding on the wire; default false (the profile's `openai_strict` transform also turns it on). */
  readonly strict?: boolean | undefined;
}

/**
 * The parsed type for a schema: a Standard Schema's output type, TypeBox's static type, or
 * `unknown` for a raw JSON Schema whose type TypeScript cannot know.
 */
export type InferResponse<TSchemaType> = InferSchemaOutput<TSchemaType, unknown>;
