import { StorageError } from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import Database from 'better-sqlite3';
import { LedgerOpenError } from '../errors/ledger-open-error.js';
import { isSqliteError } from '../ledger/sqlite-failure.js';
import { LEDGER_TABLE, migrateSchema } from './migrate-schema.js';

/**
 * How a store opens its database: `create` (the default) creates the file and the schema when
 * missing; `open` (for resume) refuses a missing file or one without the ledger schema.
 */
export type SqliteOpenMode = 'create' | 'open';

/** Options shared by the ledger and the checkpoint store. @internal */
export interface OpenDatabaseOptions {
  readonly path: unknown;
  readonly mode?: unknown;
  readonly busyTimeoutMs?: unknown;
}

/**
 * Validates the options, opens the file in WAL mode and brings the schema up to date.
 * @throws {InvalidInputError} when `path` is not a non-empty string (`':memory:'` must be written
 * out: an unset variable never silently becomes a throwaway in-memory database), or `mode` or
 * `busyTimeoutMs` is malformed.
 * @throws {LedgerOpenError} in `open` mode for a missing file or one without the ledger schema, and
 * in any mode for a missing directory or a file that is not an SQLite database.
 * @throws {StorageError} when SQLite cannot open or write the file (no permission, read-only, full).
 * @internal
 */
export function openDatabase(
  entryPoint: string,
  options: OpenDatabaseOptions,
): { db: Database.Database; path: string } {
  const { path, mode = 'create', busyTimeoutMs = 5000 } = (options ?? {}) as OpenDatabaseOptions;
  if (typeof path !== 'string' || path.length === 0) {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`path\` is required: a database file, or ':memory:' written out (got ${describe(path)})`,
    });
  }
  if (mode !== 'create' && mode !== 'open') {
    throw new InvalidInputError({ entryPoint, reason: `\`mode\` must be 'create' or 'open' (got ${describe(mode)})` });
  }
  if (typeof busyTimeoutMs !== 'number' || !Number.isFinite(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new InvalidInputError({
      entryPoint,
      reason: `\`busyTimeoutMs\` must be a finite number >= 0 (got ${describe(busyTimeoutMs)})`,
    });
  }
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: busyTimeoutMs, fileMustExist: mode === 'open' });
  } catch (error) {
    // better-sqlite3 checks the directory itself and throws a plain TypeError (no code) for it.
    if (error instanceof TypeError && /directory does not exist/.test(error.message)) {
      throw new LedgerOpenError({ path, problem: 'missing_directory', cause: error });
    }
    if (mode === 'open' && (error as { code?: unknown }).code === 'SQLITE_CANTOPEN') {
      throw new LedgerOpenError({ path, problem: 'missing_file', cause: error });
    }
    if (isSqliteError(error))
      throw new StorageError({ operation: `${entryPoint} (open)`, location: path, cause: error });
    throw error;
  }
  try {
    if (mode === 'open' && !hasLedgerSchema(db)) throw new LedgerOpenError({ path, problem: 'no_schema' });
    db.pragma('journal_mode = WAL');
    migrateSchema(db, path);
    return { db, path };
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') {
      throw new LedgerOpenError({ path, problem: 'not_a_database', cause: error });
    }
    if (isSqliteError(error))
      throw new StorageError({ operation: `${entryPoint} (open)`, location: path, cause: error });
    throw error;
  }
}

function hasLedgerSchema(db: Database.Database): boolean {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < 1) return false;
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(LEDGER_TABLE) !== undefined;
}

function describe(value: unknown): string {
  if (value === '') return 'an empty string';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  return typeof value;
}
