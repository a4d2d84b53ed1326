import {
  type ArtifactData,
  type ArtifactPutOptions,
  type ArtifactRef,
  type ArtifactStore,
  prepareArtifact,
  verifyArtifactBytes,
} from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import type Database from 'better-sqlite3';
import { LedgerClosedError } from '../errors/ledger-closed-error.js';
import { guarded, guardStoreMethods } from '../ledger/sqlite-failure.js';
import type { SqliteToolEffectLedger } from '../ledger/sqlite-tool-effect-ledger.js';
import { ARTIFACT_TABLE } from '../schema/migrate-schema.js';
import type { SqliteOpenMode } from '../schema/open-database.js';
import { connectStore } from '../schema/shared-connection.js';

/**
 * Options for {@link SqliteArtifactStore}: the ledger whose connection to share, or a database file
 * of its own.
 */
export type SqliteArtifactStoreOptions =
  | { readonly ledger: SqliteToolEffectLedger }
  | {
      /** The database file; required (`':memory:'` written out is allowed), as for the ledger. */
      readonly path: string;
      /** `create` (default) or `open` (refuse a missing file or one without the schema). */
      readonly mode?: SqliteOpenMode | undefined;
      /** How long a write waits for another process's write lock, in milliseconds. Default 5000. */
      readonly busyTimeoutMs?: number | undefined;
    };

interface ArtifactRow {
  uri: string;
  run_id: string;
  call_id: string;
  name: string;
  media_type: string;
  bytes: number;
  sha256: string;
}

const toRef = (row: ArtifactRow): ArtifactRef => ({
  uri: row.uri,
  name: row.name,
  mediaType: row.media_type,
  bytes: row.bytes,
  sha256: row.sha256,
  runId: row.run_id,
  callId: row.call_id,
});

/**
 * A durable `ArtifactStore` (`@tiny/harness`) in SQLite: one row per artifact in `tiny_artifacts`
 * (`ARTIFACT_TABLE`), bytes and reference together. Each `put` is one transaction committed with
 * `synchronous=FULL`, so a process killed at any point leaves the artifact wholly stored or absent,
 * never a row that `get` or `list` returns with partial bytes. Every `get` checks the stored bytes
 * against the size and SHA-256 of their row and, for a reference (not a bare URI), of the reference
 * itself. Pass `{ ledger }` to keep artifacts in the ledger's database (and connection).
 *
 * ```ts
 * const ledger = new SqliteToolEffectLedger({ path: 'agent.db' });
 * const harness = new AgentHarness({ model, tools, ledger, artifacts: new SqliteArtifactStore({ ledger }) });
 * ```
 *
 * @throws {InvalidInputError}, `LedgerOpenError` and `LedgerSchemaVersionError` from the
 * constructor, as for {@link SqliteToolEffectLedger}.
 * @throws {LedgerClosedError} (as a rejection) from any method once the store (or its ledger) is closed.
 * @throws {StorageError} (as a rejection) when the database cannot be written or read (`SQLITE_FULL`,
 * `SQLITE_READONLY`, I/O errors); a failed `put` stores nothing.
 */
export class SqliteArtifactStore implements ArtifactStore {
  /** The database file. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly owned: boolean;
  private closed = false;
  private readonly statements: {
    put: Database.Statement;
    get: Database.Statement<[string], ArtifactRow & { data: Buffer }>;
    list: Database.Statement<[string], ArtifactRow>;
  };

  constructor(options: SqliteArtifactStoreOptions) {
    const connection = connectStore('SqliteArtifactStore', 'SqliteArtifactStore', options);
    this.db = connection.db;
    this.path = connection.path;
    this.owned = connection.owned;
    const columns = 'uri, run_id, call_id, name, media_type, bytes, sha256';
    this.statements = {
      put: this.db.prepare(
        `INSERT INTO ${ARTIFACT_TABLE} (${columns}, data, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      get: this.db.prepare(`SELECT ${columns}, data FROM ${ARTIFACT_TABLE} WHERE uri = ?`),
      list: this.db.prepare(`SELECT ${columns} FROM ${ARTIFACT_TABLE} WHERE run_id = ? ORDER BY seq`),
    };
    guardStoreMethods(this, 'SqliteArtifactStore', this.path);
  }

  /** Stores the bytes and their reference in one transaction, fsynced when the promise resolves. */
  async put(data: ArtifactData, options: ArtifactPutOptions): Promise<ArtifactRef> {
    this.assertOpen('put');
    const { bytes, ref } = prepareArtifact('SqliteArtifactStore.put', data, options);
    guarded('SqliteArtifactStore.put', this.path, () => {
      this.db.exec('PRAGMA synchronous = FULL');
      const insert = this.db.transaction(() =>
        this.statements.put.run(
          ref.uri,
          ref.runId,
          ref.callId,
          ref.name,
          ref.mediaType,
          ref.bytes,
          ref.sha256,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          Date.now(),
        ),
      );
      insert.immediate();
    });
    return ref;
  }

  /**
   * The stored bytes, or `undefined` when the store has no artifact of that URI.
   * @throws {ArtifactUnreadableError} (as a rejection) when the bytes do not match the size and
   * SHA-256 of their row, or of `ref` when it is a reference.
   */
  async get(ref: ArtifactRef | string): Promise<Uint8Array | undefined> {
    this.assertOpen('get');
    const uri = typeof ref === 'string' ? ref : (ref as ArtifactRef | null)?.uri;
    if (typeof uri !== 'string') {
      throw new InvalidInputError({
        entryPoint: 'SqliteArtifactStore.get',
        reason: 'expected an ArtifactRef or its `uri`',
      });
    }
    if (typeof ref !== 'string' && (typeof ref.sha256 !== 'string' || typeof ref.bytes !== 'number')) {
      throw new InvalidInputError({
        entryPoint: 'SqliteArtifactStore.get',
        reason: 'an ArtifactRef must carry its `sha256` and `bytes` (pass the `uri` alone to read without them)',
      });
    }
    const row = guarded('SqliteArtifactStore.get', this.path, () => this.statements.get.get(uri));
    if (row === undefined) return undefined;
    const bytes = new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    return verifyArtifactBytes(uri, bytes, row, ref);
  }

  /** The run's artifacts, in the order they were stored. */
  async list(runId: string): Promise<ArtifactRef[]> {
    this.assertOpen('list');
    if (typeof runId !== 'string' || runId.length === 0) {
      throw new InvalidInputError({
        entryPoint: 'SqliteArtifactStore.list',
        reason: 'the run id must be a non-empty string',
      });
    }
    return guarded('SqliteArtifactStore.list', this.path, () => this.statements.list.all(runId)).map(toRef);
  }

  /** Closes the connection when the store opened its own; one sharing a ledger's leaves it to the ledger. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) this.db.close();
  }

  private assertOpen(operation: string): void {
    if (this.closed || !this.db.open) throw new LedgerClosedError({ operation });
  }
}
