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
