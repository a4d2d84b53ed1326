import { StorageError } from '@tiny/harness';
import { InvalidInputError, TinyError } from '@tiny/tools';

/** A lone UTF-16 surrogate: SQLite stores text as UTF-8, which cannot hold one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `value` when it is well-formed text, else an {@link InvalidInputError}: better-sqlite3 writes a
 * lone surrogate as bytes that read back as three U+FFFD, so such an id would never round-trip.
 * @internal
 */
export function wellFormed(entryPoint: string, field: string, value: string): string {
  if (LONE_SURROGATE.test(value)) {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`${field}\` holds a lone UTF-16 surrogate (not well-formed Unicode), which SQLite text cannot keep`,
    });
  }
  return value;
}

/** Whether `error` is SQLite's own (better-sqlite3 gives it a `SQLITE_` code). @internal */
export function isSqliteError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

/**
 * Runs a database operation, turning a failure of the database itself (`SQLITE_FULL`,
 * `SQLITE_READONLY`, `SQLITE_IOERR`...) into a {@link StorageError}; other errors pass through.
 * @internal
 */
export function guarded<T>(operation: string, location: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (TinyError.isInstance(error) || !isSqliteError(error)) throw error;
    throw new StorageError({ operation, location, cause: error });
  }
}

/** A database failure as a {@link StorageError}; errors of this family and others pass through. */
function asStorageError(operation: string, location: string, error: unknown): unknown {
  if (TinyError.isInstance(error) || !isSqliteError(error)) return error;
  return new StorageError({ operation, location, cause: error });
}

/**
 * Wraps every method of `store` (those of its class, found on its prototype, so a method added
 * later is covered too) so that a failure of the database itself (`SQLITE_BUSY`, `SQLITE_FULL`,
 * `SQLITE_CORRUPT`, `SQLITE_IOERR`...) leaves it as a {@link StorageError} naming
 * `<name>.<method>`, whether the method throws or rejects. Called last in each store's constructor.
 * @internal
 */
export function guardStoreMethods(store: object, name: string, location: string): void {
  const prototype = Object.getPrototypeOf(store) as object;
  for (const key of Object.getOwnPropertyNames(prototype)) {
    if (key === 'constructor') continue;
    const method = Object.getOwnPropertyDescriptor(prototype, key)?.value;
    if (typeof method !== 'function') continue;
    const operation = `${name}.${key}`;
    const guardedMethod = function (this: unknown, ...args: unknown[]): unknown {
      let result: unknown;
      try {
        result = method.apply(this, args);
      } catch (error) {
        throw asStorageError(operation, location, error);
      }
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          throw asStorageError(operation, location, error);
        });
      }
      return result;
    };
    Object.defineProperty(store, key, { value: guardedMethod, configurable: true, writable: true, enumerable: false });
  }
}

const describeValue = (value: unknown): string =>
  value === null ? 'null' : typeof value === 'string' ? 'an empty string' : typeof value;

/**
 * A run id argument as well-formed, non-empty text, or an {@link InvalidInputError}: a number or an
 * object is never bound (SQLite would store `1` as an integer that `'1'` never finds). With `lone`,
 * a lone surrogate is let through for the caller to answer (a read finds no row under it). @internal
 */
export function checkedText(
  entryPoint: string,
  field: string,
  value: unknown,
  options: { empty?: boolean; lone?: boolean } = {},
): string {
  if (typeof value !== 'string' || (value.length === 0 && options.empty !== true)) {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`${field}\` must be a ${options.empty === true ? '' : 'non-empty '}string, got ${describeValue(value)}`,
    });
  }
  return options.lone === true ? value : wellFormed(entryPoint, field, value);
}

/** Whether `value` holds a lone UTF-16 surrogate (which SQLite text cannot keep). @internal */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/** Reads `field` of a row argument, refusing a row that is not an object or whose getter throws. @internal */
export function rowField(entryPoint: string, row: unknown, field: string): unknown {
  if (typeof row !== 'object' || row === null) {
    throw new InvalidInputError({ entryPoint, reason: `the row must be an object, got ${describeValue(row)}` });
  }
  try {
    return (row as Record<string, unknown>)[field];
  } catch (error) {
    throw new InvalidInputError({ entryPoint, reason: `\`${field}\` cannot be read`, cause: error });
  }
}
