import type { StandardSchemaV1 } from '@standard-schema/spec';
import { SchemaCompileFailure } from '../validation/create-validator.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { normalizeLibrarySchema } from './normalize-library-schema.js';
import type { SchemaInput } from './schema-input.js';

/** A schema slot's value, resolved: the JSON Schema the model and ajv see, plus the library's validator. */
export interface ResolvedSchema {
  /** The JSON Schema: the input itself for TypeBox and raw JSON Schema, else the library's, normalized. */
  readonly jsonSchema: JsonSchema;
  /** The Standard Schema the JSON Schema came from; its `validate` runs after ajv. */
  readonly standard?: StandardSchemaV1 | undefined;
  /** `~standard.vendor` (`zod`, `valibot`, `arktype`), or `json-schema` for TypeBox and raw JSON Schema. */
  readonly vendor: string;
}

/**
 * Which side of a Standard Schema to describe: `input` for what a model produces (tool
 * arguments, structured output), `output` for what a tool returns after the library's transforms.
 */
export type SchemaSide = 'input' | 'output';

const caches = { input: new WeakMap<object, ResolvedSchema>(), output: new WeakMap<object, ResolvedSchema>() };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` implements `StandardSchemaV1` (a `~standard` bag with version 1 and `validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (!isRecord(value) && typeof value !== 'function') return false;
  const props = (value as Record<string, unknown>)['~standard'];
  return isRecord(props) && props.version === 1 && typeof props.validate === 'function';
}

function looksLikeZod3(value: Record<string, unknown>): boolean {
  return isRecord(value._def) && !('_zod' in value) && typeof value.safeParse === 'function';
}

/**
 * Resolves what a schema slot was given. TypeBox and raw JSON Schema objects come back as they
 * are (same object); a Standard Schema value gives `~standard.jsonSchema[side]({ target:
 * 'draft-2020-12' })`, normalized (see `normalizeLibrarySchema`), and keeps the value for its
 * `validate`. Cached per input object and side.
 *
 * @throws {SchemaCompileFailure} for a Zod 3 schema, a validation-only Standard Schema (no JSON
 * Schema side), a library that cannot describe the schema, or a value that is not an object;
 * each message says what to do instead.
 */
export function resolveSchema(input: SchemaInput, side: SchemaSide = 'input'): ResolvedSchema {
  if (!isRecord(input) && typeof input !== 'function') {
    throw new SchemaCompileFailure('a schema must be a TypeBox schema, a JSON Schema object or a Standard Schema');
  }
  const cache = caches[side];
  const cached = cache.get(input);
  if (cached) return cached;
  const record = input as Record<string, unknown>;
  let resolved: ResolvedSchema;
  if (looksLikeZod3(record)) {
    throw new SchemaCompileFailure(
      'Zod 3 is not supported: upgrade to zod ≥ 4.2 (its schemas describe themselves as JSON Schema), or convert this schema with zodToJsonSchema(schema) from the zod-to-json-schema package and pass that JSON Schema instead',
    );
  }
  if (isStandardSchema(input)) {
    const props = input['~standard'] as StandardSchemaV1.Props & { jsonSchema?: Record<string, unknown> };
    const converter = props.jsonSchema;
    if (!isRecord(converter) || typeof converter[side] !== 'function') {
      const hint =
        props.vendor === 'zod'
          ? 'upgrade to zod ≥ 4.2 (it implements StandardJSONSchemaV1)'
          : props.vendor === 'valibot'
            ? 'wrap it with toStandardJsonSchema() from @valibot/to-json-schema'
            : 'pass a JSON Schema with it or use a library version that implements StandardJSONSchemaV1';
      throw new SchemaCompileFailure(
        `this ${props.vendor} schema only validates and cannot describe itself as JSON Schema (no \`~standard.jsonSchema\`): ${hint}`,
      );
    }
    let described: unknown;
    try {
      described = (converter[side] as (options: { target: string }) => unknown)({ target: 'draft-2020-12' });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SchemaCompileFailure(
        `the ${props.vendor} schema cannot be described as JSON Schema (${side} side): ${reason}; the model must see a JSON Schema, so pass one instead`,
        { cause: error },
      );
    }
    if (!isRecord(described)) {
      throw new SchemaCompileFailure(`the ${props.vendor} schema's JSON Schema (${side} side) is not an object`);
    }
    resolved = { jsonSchema: normalizeLibrarySchema(described), standard: input, vendor: props.vendor };
  } else {
    resolved = { jsonSchema: record as JsonSchema, vendor: 'json-schema' };
  }
  cache.set(input, resolved);
  return resolved;
}
