import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Static, TSchema } from 'typebox';
import type { JsonSchema } from '../validation/json-schema.js';

/**
 * A value from any Standard Schema library that can both validate (`StandardSchemaV1`) and
 * describe itself as JSON Schema (`StandardJSONSchemaV1`): Zod ≥ 4.2, ArkType ≥ 2.1.28, Valibot
 * through `toStandardJsonSchema()` from `@valibot/to-json-schema`.
 */
export type StandardSchemaInput<TInput = unknown, TOutput = TInput> = StandardSchemaV1<TInput, TOutput> &
  StandardJSONSchemaV1<TInput, TOutput>;

/**
 * What every schema slot accepts: a TypeBox schema, a raw JSON Schema object (draft 2020-12 or
 * draft-07), or a {@link StandardSchemaInput}. TypeBox and raw JSON Schema are used as they are;
 * a Standard Schema value gives its JSON Schema (`jsonSchema.input`, draft 2020-12) for the model
 * and the gate, and keeps its own `validate` for refinements, transforms and defaults.
 */
export type SchemaInput = TSchema | JsonSchema | StandardSchemaInput;

/** True when `T` is a Standard Schema (has a `~standard` property bag). */
type IsStandard<T> = T extends { readonly '~standard': { readonly version: 1 } } ? true : false;

/**
 * The value a schema produces once validated: `StandardSchemaV1.InferOutput` for a Standard Schema
 * (transforms and defaults applied), the TypeBox static type, or `TFallback` for a raw JSON Schema
 * whose type TypeScript cannot know.
 */
export type InferSchemaOutput<TSchemaInput, TFallback = unknown> =
  IsStandard<TSchemaInput> extends true
    ? TSchemaInput extends StandardSchemaV1
      ? StandardSchemaV1.InferOutput<TSchemaInput>
      : TFallback
    : TSchemaInput extends TSchema
      ? unknown extends Static<TSchemaInput>
        ? TFallback
        : Static<TSchemaInput>
      : TFallback;

/** The value a schema accepts before validation: `StandardSchemaV1.InferInput`, else as {@link InferSchemaOutput}. */
export type InferSchemaInput<TSchemaInput, TFallback = unknown> =
  IsStandard<TSchemaInput> extends true
    ? TSchemaInput extends StandardSchemaV1
      ? StandardSchemaV1.InferInput<TSchemaInput>
      : TFallback
    : InferSchemaOutput<TSchemaInput, TFallback>;
