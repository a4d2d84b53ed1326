export { LedgerClosedError } from './errors/ledger-closed-error.js';
export { LedgerSchemaVersionError } from './errors/ledger-schema-version-error.js';
export { SqliteToolEffectLedger, type SqliteToolEffectLedgerOptions } from './ledger/sqlite-tool-effect-ledger.js';
export { LEDGER_SCHEMA_VERSION, LEDGER_TABLE } from './schema/migrate-schema.js';
