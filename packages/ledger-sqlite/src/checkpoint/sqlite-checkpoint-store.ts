import {
  type CheckpointStore,
  CheckpointUnreadableError,
  InvalidRunStateError,
  parseRunState,
  type RunState,
  serializeRunState,
} from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import type Database from 'better-sqlite3';
import { LedgerClosedError } from '../errors/ledger-closed-error.js';
import { guarded, guardStoreMethods, wellFormed } from '../ledger/sqlite-failure.js';
import { CHECKPOINT_TABLE } from '../schema/migrate-schema.js';
import type { SqliteOpenMode } from '../schema/open-database.js';
import { connectStore } from '../schema/shared-connection.js';

/** The table of consumed resume claims (`claimResume`), one row per run id and claim. */
export const RESUME_CLAIM_TABLE = 'tiny_resume_claims';

/**
 * Options for {@link SqliteCheckpointStore}: the ledger whose connection to share (what
 * `ledger.checkpointStore()` does), or a database file of its own.
 */
export type SqliteCheckpointStoreOptions =
  | {
      /**
       * An open `SqliteToolEffectLedger` (typed by its shape, so this module and the ledger's need
       * not import each other; anything else is refused at run time with `InvalidInputError`).
       */
      readonly ledger: { readonly path: string };
    }
  | {
      /** The database file; required (`':memory:'` written out is allowed), as for the ledger. */
      readonly path: string;
      /** `create` (default) or `open` (refuse a missing file or one without the schema). */
      readonly mode?: SqliteOpenMode | undefined;
      /** How long a write waits for another process's write lock, in milliseconds. Default 5000. */
      readonly busyTimeoutMs?: number | undefined;
    };

/**
 * A durable {@link CheckpointStore} in SQLite: one row per run in `tiny_run_checkpoints`
 * (`CHECKPOINT_TABLE`), in the ledger's database. Each `save` is one transaction committed with
 * `synchronous=FULL` (the WAL is fsynced before the promise resolves), so a process killed at any
 * point leaves the previous state or the new one. Sharing the ledger's connection
 * (`ledger.checkpointStore()`), the checkpoint and the `started` rows written after it go through
 * one WAL in order: a `started` row that survived a crash always has its checkpoint.
 *
 * ```ts
 * const ledger = new SqliteToolEffectLedger({ path: 'agent.db' });
 * const checkpoints = ledger.checkpointStore();
 * await harness.invoke({ runId }, messages, { onCheckpoint: (state) => checkpoints.save(state) });
 * ```
 *
 * @throws {InvalidInputError}, {@link LedgerOpenError} and `LedgerSchemaVersionError` from the
 * constructor, as for {@link SqliteToolEffectLedger}.
 * @throws {LedgerClosedError} (as a rejection) from any method once the store (or its ledger) is closed.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  /** The database file. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly owned: boolean;
  private closed = false;
  private readonly statements: {
    save: Database.Statement;
    load: Database.Statement<[string], { state: string }>;
    list: Database.Statement<[], { run_id: string }>;
    delete: Database.Statement<[string]>;
    claim: Database.Statement<[string, string, number]>;
  };

  constructor(options: SqliteCheckpointStoreOptions) {
    const connection = connectStore('SqliteCheckpointStore', 'checkpointStore', options);
    this.db = connection.db;
    this.path = connection.path;
    this.owned = connection.owned;
    this.statements = {
      save: this.db.prepare(
        `INSERT INTO ${CHECKPOINT_TABLE} (run_id, state, saved_at) VALUES (?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET state = excluded.state, saved_at = excluded.saved_at`,
      ),
      load: this.db.prepare(`SELECT state FROM ${CHECKPOINT_TABLE} WHERE run_id = ?`),
      list: this.db.prepare(`SELECT run_id FROM ${CHECKPOINT_TABLE} ORDER BY run_id`),
      delete: this.db.prepare(`DELETE FROM ${CHECKPOINT_TABLE} WHERE run_id = ?`),
      claim: guarded('SqliteCheckpointStore (open)', this.path, () => this.prepareClaims()),
    };
    guardStoreMethods(this, 'SqliteCheckpointStore', this.path);
  }

  /** The claims table (`RESUME_CLAIM_TABLE`, made when missing) and its insert. */
  private prepareClaims(): Database.Statement<[string, string, number]> {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${RESUME_CLAIM_TABLE} (
         run_id TEXT NOT NULL, claim TEXT NOT NULL, claimed_at INTEGER NOT NULL, PRIMARY KEY (run_id, claim)
       ) WITHOUT ROWID`,
    );
    return this.db.prepare(
      `INSERT INTO ${RESUME_CLAIM_TABLE} (run_id, claim, claimed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
    );
  }

  /** Replaces the run's checkpoint in one transaction, fsynced when the promise resolves. */
  async save(state: RunState): Promise<void> {
    let claimed: unknown;
    try {
      claimed = (state as { runId?: unknown } | null | undefined)?.runId;
    } catch (error) {
      throw new InvalidRunStateError({ reason: `its run id cannot be read (${String(error)})`, cause: error });
    }
    const runId = this.checkedRunId('save', claimed);
    // Checked as `load` checks it, so a save never replaces a good checkpoint with one `load` refuses.
    const text = serializeRunState(state);
    const written = (JSON.parse(text) as { runId: string }).runId;
    if (written !== runId) {
      throw new InvalidRunStateError({
        reason: `it names run "${runId}" but serialises as the state of run "${written}"`,
      });
    }
    // Never weakens durability: a ledger on this connection resets its own level before each write.
    guarded('SqliteCheckpointStore.save', this.path, () => {
      this.db.exec('PRAGMA synchronous = FULL');
      this.statements.save.run(runId, text, Date.now());
    });
  }

  /**
   * The run's checkpoint, or `undefined` when none is stored.
   * @throws {CheckpointUnreadableError} (as a rejection) when the stored text is not a valid state of this run.
   */
  async load(runId: string): Promise<RunState | undefined> {
    const id = this.checkedRunId('load', runId);
    const row = this.statements.load.get(id);
    if (row === undefined) return undefined;
    const location = `${this.path} (table ${CHECKPOINT_TABLE})`;
    let state: RunState;
    try {
      state = parseRunState(row.state);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CheckpointUnreadableError({ runId: id, location, reason, cause: error });
    }
    if (state.runId !== id) {
      throw new CheckpointUnreadableError({
        runId: id,
        location,
        reason: `it holds the state of run "${state.runId}"`,
      });
    }
    return state;
  }

  /** The run ids with a checkpoint, sorted. */
  async list(): Promise<string[]> {
    this.assertOpen('list');
    // Sorted here, by UTF-16 code units like every other store: SQLite's order is by UTF-8 bytes.
    return this.statements.list
      .all()
      .map((row) => row.run_id)
      .sort();
  }

  /** Removes the run's checkpoint; nothing stored is not an error. */
  async delete(runId: string): Promise<void> {
    this.statements.delete.run(this.checkedRunId('delete', runId));
  }

  /**
   * Consumes `claim` for `runId` (see `ResumeClaimStore`): one `INSERT` into the claims table, whose
   * primary key is the pair, committed with `synchronous=FULL`. `true` when this call inserted the
   * row, `false` when any process sharing the database already had.
   */
  async claimResume(runId: string, claim: string): Promise<boolean> {
    const id = this.checkedRunId('claimResume', runId);
    if (typeof claim !== 'string' || claim.length === 0) {
      throw new InvalidInputError({
        entryPoint: 'SqliteCheckpointStore.claimResume',
        reason: 'the claim must be a non-empty string',
      });
    }
    const checked = wellFormed('SqliteCheckpointStore.claimResume', 'claim', claim);
    return guarded('SqliteCheckpointStore.claimResume', this.path, () => {
      this.db.exec('PRAGMA synchronous = FULL');
      return this.statements.claim.run(id, checked, Date.now()).changes === 1;
    });
  }

  /** Closes the connection when the store opened its own; a store from `ledger.checkpointStore()` leaves it to the ledger. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) this.db.close();
  }

  private assertOpen(operation: string): void {
    if (this.closed || !this.db.open) throw new LedgerClosedError({ operation });
  }

  private checkedRunId(operation: string, runId: unknown): string {
    this.assertOpen(operation);
    if (typeof runId !== 'string' || runId.length === 0) {
      throw new InvalidInputError({
        entryPoint: `SqliteCheckpointStore.${operation}`,
        reason: 'the run id must be a non-empty string',
      });
    }
    return wellFormed(`SqliteCheckpointStore.${operation}`, 'runId', runId);
  }
}
