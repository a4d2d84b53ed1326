import type { JsonSchema } from '@tiny/tools';
import type { Static, TSchema } from 'typebox';

/**
 * The schema of a structured answer.
 * - `name` identifies it to the provider and names the tool strategy's output tool (letters,
 *   digits, `_` and `-`; it must not collide with a registered tool).
 * - `schema` is a TypeBox schema (the parsed value is then statically typed) or a raw JSON Schema.
 * - `strict` asks for strict decoding: the wire schema goes through `toStrictSchema` (every
 *   property required, optional ones nullable, `additionalProperties: false`) and the value
 *   through `fromStrictValue` before it is validated against the declared `schema`.
 */
export interface ResponseSchema<TSchemaType extends TSchema | JsonSchema = JsonSchema> {
  readonly name: string;
  /** Shown to the model (tool description, provider schema description). */
  readonly description?: string | undefined;
  readonly schema: TSchemaType;
  /** Strict decoding on the wire; default false (the profile's `openai_strict` transform also turns it on). */
  readonly strict?: boolean | undefined;
}

/** The parsed type for a schema: TypeBox's static type, or `unknown` for a raw JSON Schema. */
export type InferResponse<TSchemaType> = TSchemaType extends TSchema
  ? unknown extends Static<TSchemaType>
    ? unknown
    : Static<TSchemaType>
  : unknown;
