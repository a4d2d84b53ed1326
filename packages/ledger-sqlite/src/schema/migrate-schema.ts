import type { Database } from 'better-sqlite3';
import { LedgerSchemaVersionError } from '../errors/ledger-schema-version-error.js';

/** The table every ledger row lives in. */
export const LEDGER_TABLE = 'tiny_tool_effects';

/** The table of `SqliteCheckpointStore`: one serialised run state per run id. */
export const CHECKPOINT_TABLE = 'tiny_run_checkpoints';

/** The table of `SqliteArtifactStore`: one row per stored artifact, bytes included. */
export const ARTIFACT_TABLE = 'tiny_artifacts';

/**
 * Migrations by the version they produce: `MIGRATIONS[n]` takes a database at version `n` to
 * `n + 1`. Append only; never edit a released step.
 */
const MIGRATIONS: readonly ((db: Database) => void)[] = [
  // 0 -> 1: one row per (run, call); `seq` keeps insertion order across processes.
  (db) => {
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${LEDGER_TABLE} (
        seq             INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id          TEXT    NOT NULL,
        call_id         TEXT    NOT NULL,
        tool            TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL,
        effect_summary  TEXT,
        status          TEXT    NOT NULL
                        CHECK (status IN ('started', 'completed', 'failed', 'interrupted')),
        started_at      INTEGER NOT NULL,
        settled_at      INTEGER,
        UNIQUE (run_id, call_id)
      );
      CREATE INDEX IF NOT EXISTS ${LEDGER_TABLE}_unresolved
        ON ${LEDGER_TABLE} (run_id, started_at, seq) WHERE status = 'started';
    `);
  },
  // 1 -> 2: run checkpoints beside the ledger rows (`SqliteCheckpointStore`).
  (db) => {
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${CHECKPOINT_TABLE} (
        run_id   TEXT    PRIMARY KEY,
        state    TEXT    NOT NULL,
        saved_at INTEGER NOT NULL
      );
    `);
  },
  // 2 -> 3: tool-result artifacts (`SqliteArtifactStore`); `seq` keeps the order they were stored in.
  (db) => {
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${ARTIFACT_TABLE} (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        uri        TEXT    NOT NULL UNIQUE,
        run_id     TEXT    NOT NULL,
        call_id    TEXT    NOT NULL,
        name       TEXT    NOT NULL,
        media_type TEXT    NOT NULL,
        bytes      INTEGER NOT NULL,
        sha256     TEXT    NOT NULL,
        data       BLOB    NOT NULL,
        stored_at  INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${ARTIFACT_TABLE}_run ON ${ARTIFACT_TABLE} (run_id, seq);
    `);
  },
];

/** The schema version this package writes (`PRAGMA user_version`). */
export const LEDGER_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the ledger schema of `db` up to {@link LEDGER_SCHEMA_VERSION}. Runs in one `BEGIN IMMEDIATE`
 * transaction, re-reading the version under the write lock, so processes opening a fresh file at the
 * same time migrate it once. Databases already current take no write lock.
 *
 * @throws {LedgerSchemaVersionError} when the file has a newer schema than this package knows.
 * @internal
 */
export function migrateSchema(db: Database, path: string): void {
  const check = (): number => {
    const found = db.pragma('user_version', { simple: true }) as number;
    if (found > LEDGER_SCHEMA_VERSION) {
      throw new LedgerSchemaVersionError({ path, foundVersion: found, supportedVersion: LEDGER_SCHEMA_VERSION });
    }
    return found;
  };
  if (check() === LEDGER_SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let version = check(); version < LEDGER_SCHEMA_VERSION; version++) MIGRATIONS[version]?.(db);
    db.pragma(`user_version = ${LEDGER_SCHEMA_VERSION}`);
  }).immediate();
}
