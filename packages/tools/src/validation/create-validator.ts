import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isMarked, TinyError } from '../errors/tiny-error.js';
import type { JsonSchema } from './json-schema.js';
import type { ValidationIssue } from './validation-issue.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** Outcome of validating one value. */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** A compiled schema. Create one with {@link createValidator}; it is cached per schema object. */
export interface Validator<T = unknown> {
  /** The schema this validator was compiled from (the same object). */
  readonly schema: JsonSchema;
  /** Checks `value` against the schema; never throws and never mutates `value`. */
  validate(value: unknown): ValidationResult<T>;
}

const failureMarker = Symbol.for('tiny.error.SchemaCompileFailure');

/** Thrown by {@link createValidator} when ajv cannot compile a schema (or it is not an object). */
export class SchemaCompileFailure extends TinyError {
  readonly [failureMarker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super('SchemaCompileFailure', message, options);
  }

  static override isInstance(value: unknown): value is SchemaCompileFailure {
    return isMarked(value, failureMarker);
  }
}

const draft07 = /json-schema\.org\/draft-0[67]\/schema/;
let ajv2020: Ajv | undefined;
let ajv07: Ajv | undefined;
const cache = new WeakMap<object, Validator>();

function createAjv(kind: '2020' | '07'): Ajv {
  // strict: false lets provider-specific keywords (`x-...`, `examples`) pass through unenforced;
  // useDefaults/coerceTypes stay off: validation never rewrites the model's arguments.
  const options = { allErrors: true, strict: false, validateFormats: true } as const;
  const ajv = kind === '2020' ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

function ajvFor(schema: JsonSchema, fresh: boolean): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const kind = draft07.test(declared) ? '07' : '2020';
  if (fresh) return createAjv(kind);
  if (kind === '07') {
    ajv07 ??= createAjv('07');
    return ajv07;
  }
  ajv2020 ??= createAjv('2020');
  return ajv2020;
}

function compile(schema: JsonSchema): ValidateFunction {
  try {
    return ajvFor(schema, false).compile(schema);
  } catch (error) {
    // Two unrelated schemas may share an `$id`; the shared instance refuses the second one.
    if (error instanceof Error && /already exists/.test(error.message)) {
      return ajvFor(schema, true).compile(schema);
    }
    throw new SchemaCompileFailure(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * Compiles `schema` with ajv 8 once and returns a cached validator for that schema object.
 * Draft 2020-12 is the default; a `$schema` naming draft-07 (or 06) selects the draft-07 dialect.
 * Formats (`email`, `date-time`, `uri`, ...) are enforced via ajv-formats.
 *
 * Integers: JSON cannot tell `1.0` from `1` once parsed, and JSON Schema (draft 6 onward) defines
 * an integer as any number with a zero fractional part, so `1.0`, `1e3` and `-0` are accepted as
 * integers and `1.5` is not. Integers beyond 2^53 are validated after `JSON.parse` has rounded them.
 *
 * @throws {SchemaCompileFailure} when ajv cannot compile the schema (unknown `$ref`, bad keyword value).
 */
export function createValidator<T = unknown>(schema: JsonSchema): Validator<T> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new SchemaCompileFailure('a JSON Schema must be an object');
  }
  const cached = cache.get(schema);
  if (cached) return cached as Validator<T>;
  const check = compile(schema);
  const validator: Validator<T> = {
    schema,
    validate(value) {
      if (check(value)) return { ok: true, value: value as T };
      return { ok: false, issues: toIssues(check.errors ?? []) };
    },
  };
  cache.set(schema, validator as Validator);
  return validator;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Maps ajv's errors to issues with JSON-pointer paths; drops the noise ajv adds for failed `if`/`anyOf` branches. */
function toIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const issue = toIssue(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.missingProperty))}`,
        keyword: 'required',
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.additionalProperty))}`,
        keyword: 'additionalProperties',
        message: 'is not allowed',
      };
    case 'unevaluatedProperties':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.unevaluatedProperty))}`,
        keyword: 'unevaluatedProperties',
        message: 'is not allowed',
      };
    case 'enum':
      return {
        path: error.instancePath,
        keyword: 'enum',
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { path: error.instancePath, keyword: 'const', message: `must be ${JSON.stringify(params.allowedValue)}` };
    default:
      return { path: error.instancePath, keyword: error.keyword, message: error.message ?? `fails ${error.keyword}` };
  }
}
