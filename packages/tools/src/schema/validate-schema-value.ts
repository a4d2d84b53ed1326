import type { StandardSchemaV1 } from '@standard-schema/spec';
import { createValidator, type ValidationResult } from '../validation/create-validator.js';
import type { ResolvedSchema } from './resolve-schema.js';
import { toValidationIssue } from './standard-issues.js';

/** Options for {@link validateSchemaValue}. */
export interface ValidateSchemaValueOptions {
  /**
   * Longest an async library `validate` may take; past it the promise rejects with `onTimeout()`.
   * A function is called only when the library turns out to be async.
   */
  readonly timeoutMs?: number | (() => number | undefined) | undefined;
  /** Aborts waiting for an async library `validate` (rejects with the signal's reason). */
  readonly signal?: AbortSignal | undefined;
  /**
   * `gate_first` (default, for what a model produced): ajv on the value, then the library.
   * `library_first` (for what a tool returned, described by the schema's output side): the
   * library turns the value into its output, then ajv checks that output.
   */
  readonly order?: 'gate_first' | 'library_first' | undefined;
  /** The error a timed-out async `validate` rejects with. */
  readonly onTimeout?: (() => unknown) | undefined;
}

/** The options of a call that gives none (shared: no empty object per call). */
const NO_OPTIONS: ValidateSchemaValueOptions = Object.freeze({});

/** ajv against the schema the model saw: the fail-closed gate. */
function gate(resolved: ResolvedSchema, value: unknown): ValidationResult<unknown> {
  return createValidator(resolved.jsonSchema).validate(value);
}

function fromLibrary(result: StandardSchemaV1.Result<unknown>): ValidationResult<unknown> {
  if (result.issues !== undefined) {
    const issues = result.issues.map(toValidationIssue);
    return {
      ok: false,
      issues: issues.length > 0 ? issues : [{ path: '', keyword: 'library', message: 'is invalid' }],
    };
  }
  return { ok: true, value: result.value };
}

function thrown(error: unknown): ValidationResult<unknown> {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    issues: [{ path: '', keyword: 'library', message: `was refused by the schema library (${reason})` }],
  };
}

/**
 * Validates `value` in the fail-closed order: first ajv against `resolved.jsonSchema` (the schema
 * the model saw; its issues decide repairability), then, only if that passed and the schema came
 * from a Standard Schema library, the library's own `~standard.validate` (refinements,
 * transforms, defaults, brands). Library issues become {@link ValidationIssue}s with JSON-pointer
 * paths and keyword `library`; the library's output value (transformed) is the result's `value`.
 * A library that throws is a failure, never a pass.
 *
 * Returns synchronously unless the library's `validate` returns a promise; that one is awaited
 * under `options.timeoutMs` and `options.signal`.
 */
export function validateSchemaValue(
  resolved: ResolvedSchema,
  value: unknown,
  options: ValidateSchemaValueOptions = NO_OPTIONS,
): ValidationResult<unknown> | Promise<ValidationResult<unknown>> {
  if (resolved.standard === undefined) return gate(resolved, value);
  const withLibrary = resolved as ResolvedSchema & { standard: StandardSchemaV1 };
  if (options.order === 'library_first') {
    const library = runLibrary(withLibrary, value, options);
    const then = (result: ValidationResult<unknown>) => (result.ok ? gate(resolved, result.value) : result);
    return library instanceof Promise ? library.then(then) : then(library);
  }
  const first = gate(resolved, value);
  if (!first.ok) return first;
  return runLibrary(withLibrary, value, options);
}

function runLibrary(
  resolved: ResolvedSchema & { standard: StandardSchemaV1 },
  value: unknown,
  options: ValidateSchemaValueOptions,
): ValidationResult<unknown> | Promise<ValidationResult<unknown>> {
  let outcome: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    outcome = resolved.standard['~standard'].validate(value);
  } catch (error) {
    return thrown(error);
  }
  if (!(outcome instanceof Promise)) return fromLibrary(outcome);
  return awaitLibrary(outcome, options);
}

function awaitLibrary(
  outcome: Promise<StandardSchemaV1.Result<unknown>>,
  options: ValidateSchemaValueOptions,
): Promise<ValidationResult<unknown>> {
  const { signal } = options;
  const timeoutMs = typeof options.timeoutMs === 'function' ? options.timeoutMs() : options.timeoutMs;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal?.reason);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        done();
        reject(options.onTimeout ? options.onTimeout() : new Error(`validation did not finish in ${timeoutMs} ms`));
      }, timeoutMs);
    }
    outcome.then(
      (result) => {
        done();
        resolve(fromLibrary(result));
      },
      (error: unknown) => {
        done();
        resolve(thrown(error));
      },
    );
  });
}
