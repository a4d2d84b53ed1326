/**
 * Durable SQLite tool-effect ledger for `@tiny/harness`, safe for several processes sharing one database file.
 * @module @tiny/ledger-sqlite
 */

/** Re-exported from `@tiny/harness`: what every store method rejects with when its storage fails. */
export { StorageError } from '@tiny/harness';
export { SqliteArtifactStore, type SqliteArtifactStoreOptions } from './artifacts/sqlite-artifact-store.js';
export { SqliteCheckpointStore, type SqliteCheckpointStoreOptions } from './checkpoint/sqlite-checkpoint-store.js';
export { LedgerClosedError } from './errors/ledger-closed-error.js';
export { LedgerOpenError, type LedgerOpenProblem } from './errors/ledger-open-error.js';
export { LedgerSchemaVersionError } from './errors/ledger-schema-version-error.js';
export { SqliteToolEffectLedger, type SqliteToolEffectLedgerOptions } from './ledger/sqlite-tool-effect-ledger.js';
export { ARTIFACT_TABLE, CHECKPOINT_TABLE, LEDGER_SCHEMA_VERSION, LEDGER_TABLE } from './schema/migrate-schema.js';
export type { SqliteOpenMode } from './schema/open-database.js';
