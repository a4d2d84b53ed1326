import type { EffectRecord, EffectSettled, EffectStarted, EffectStatus, ToolEffectLedger } from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import type Database from 'better-sqlite3';
import { SqliteCheckpointStore } from '../checkpoint/sqlite-checkpoint-store.js';
import { LedgerClosedError } from '../errors/ledger-closed-error.js';
import { LEDGER_TABLE } from '../schema/migrate-schema.js';
import { openDatabase, type SqliteOpenMode } from '../schema/open-database.js';
import { databases } from '../schema/shared-connection.js';
import { checkedText, guarded, guardStoreMethods, hasLoneSurrogate, rowField } from './sqlite-failure.js';

/** Options for {@link SqliteToolEffectLedger}. */
export interface SqliteToolEffectLedgerOptions {
  /**
   * The database file. Required: `undefined`, `null` and `''` throw, so an unset environment
   * variable never yields a silently non-durable ledger. `':memory:'` written out works but is
   * private to this connection (no sharing, no durability).
   */
  readonly path: string;
  /**
   * `create` (default): create the file and schema when missing. `open`: for resume, refuse a
   * missing file or one without the ledger schema (`LedgerOpenError`), so a wrong path never
   * resumes against an empty ledger that would report no effects.
   */
  readonly mode?: SqliteOpenMode | undefined;
  /**
   * How long a write waits for another process holding the write lock before failing with
   * `SQLITE_BUSY`, in milliseconds. Default 5000.
   */
  readonly busyTimeoutMs?: number | undefined;
  /**
   * Also fsync `settled` writes. Default false: `started` rows are always fsynced; a settle lost to
   * a power cut leaves its row `started`, which resume treats conservatively (see README).
   */
  readonly durableSettled?: boolean | undefined;
}

interface Row {
  run_id: string;
  call_id: string;
  tool: string;
  idempotency_key: string;
  effect_summary: string | null;
  status: EffectStatus;
  started_at: number;
  settled_at: number | null;
}

const COLUMNS = 'run_id, call_id, tool, idempotency_key, effect_summary, status, started_at, settled_at';

/**
 * A durable {@link ToolEffectLedger} in one SQLite file (better-sqlite3), shared safely by several
 * processes: WAL journal, a busy timeout for writers waiting on each other, and one row per
 * `(runId, callId)` enforced by a unique key, so a repeated `started` never adds a row.
 *
 * - `started` commits with `synchronous=FULL` (the WAL is fsynced) before its promise resolves.
 * - `settled` moves a `started` row to its final status. `completed` and `failed` are final;
 *   `interrupted` (written by resume) can still be replaced by a late `completed`/`failed` from a
 *   process that was presumed dead, never the other way round. A settle for an unknown row is ignored.
 * - `unresolved(runId)` returns rows still `started`, by start time, then insertion order.
 *
 * Opening creates or migrates the schema (`PRAGMA user_version`); `mode: 'open'` refuses a database
 * without one. `checkpointStore()` keeps run checkpoints in the same file, on the same connection.
 * better-sqlite3 is synchronous:
 * each method does its work before returning a settled promise, blocking the event loop for the
 * duration of one small statement (plus an fsync for `started`).
 *
 * @throws {InvalidInputError} from the constructor when `path` is missing or empty, or an option is malformed.
 * @throws {LedgerOpenError} from the constructor in `open` mode for a missing file or one without the
 * ledger schema, and in any mode for a file that is not an SQLite database.
 * @throws {LedgerSchemaVersionError} from the constructor when the file has a newer schema.
 * @throws {LedgerClosedError} (as a rejection) from any method called after {@link close}.
 * @throws {StorageError} (as a rejection) when the database cannot be written or read (`SQLITE_FULL`,
 * `SQLITE_READONLY`, I/O errors); the failed statement changed nothing.
 * @throws {InvalidInputError} (as a rejection) from `started` for text with a lone UTF-16 surrogate,
 * which SQLite's UTF-8 text cannot keep.
 */
export class SqliteToolEffectLedger implements ToolEffectLedger {
  /** The database file this ledger writes to. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly durableSettled: boolean;
  private synchronous: 'FULL' | 'NORMAL' = 'FULL';
  private closed = false;
  private readonly statements: {
    insert: Database.Statement;
    settle: Database.Statement;
    unresolved: Database.Statement<[string], Row>;
    rows: Database.Statement<[string], Row>;
  };

  constructor(options: SqliteToolEffectLedgerOptions) {
    const { db, path } = openDatabase('SqliteToolEffectLedger', options);
    this.path = path;
    this.db = db;
    this.durableSettled = options.durableSettled === true;
    databases.set(this, db);
    try {
      this.statements = {
        insert: this.db.prepare(
          `INSERT INTO ${LEDGER_TABLE} (run_id, call_id, tool, idempotency_key, effect_summary, status, started_at)
           VALUES (?, ?, ?, ?, ?, 'started', ?)
           ON CONFLICT (run_id, call_id) DO NOTHING`,
        ),
        settle: this.db.prepare(
          `UPDATE ${LEDGER_TABLE}
           SET status = @status, settled_at = @now, effect_summary = COALESCE(@summary, effect_summary)
           WHERE run_id = @runId AND call_id = @callId
             AND (status = 'started' OR (status = 'interrupted' AND @status IN ('completed', 'failed')))`,
        ),
        unresolved: this.db.prepare(
          `SELECT ${COLUMNS} FROM ${LEDGER_TABLE} WHERE run_id = ? AND status = 'started' ORDER BY started_at, seq`,
        ),
        rows: this.db.prepare(`SELECT ${COLUMNS} FROM ${LEDGER_TABLE} WHERE run_id = ? ORDER BY seq`),
      };
      // After preparing: the level is set when a PRAGMA is compiled, so it is never prepared ahead.
      this.db.exec('PRAGMA synchronous = FULL');
    } catch (error) {
      this.db.close();
      // A database busy, full or corrupt already when preparing: typed like every later failure.
      guarded('SqliteToolEffectLedger (open)', this.path, () => {
        throw error;
      });
      throw error;
    }
    guardStoreMethods(this, 'SqliteToolEffectLedger', this.path);
  }

  /**
   * Claims and records an intended effect; durable (fsynced) when the promise resolves. `true` when
   * this call wrote the row; `false` when a row for the same `(runId, callId)` already existed (in
   * this or another process sharing the file): the write changes nothing and the call must not run.
   */
  async started(row: EffectStarted): Promise<boolean> {
    this.open('started');
    const entryPoint = 'SqliteToolEffectLedger.started';
    const [runId, callId, tool, idempotencyKey] = (['runId', 'callId', 'tool', 'idempotencyKey'] as const).map(
      (field) => checkedText(entryPoint, field, rowField(entryPoint, row, field)),
    );
    const summary = rowField(entryPoint, row, 'effectSummary');
    const effectSummary =
      summary === undefined ? null : checkedText(entryPoint, 'effectSummary', summary, { empty: true });
    return guarded(entryPoint, this.path, () => {
      this.setSynchronous('FULL');
      // One INSERT … ON CONFLICT DO NOTHING: the unique key makes it an atomic claim across processes.
      return this.statements.insert.run(runId, callId, tool, idempotencyKey, effectSummary, Date.now()).changes === 1;
    });
  }

  /** Settles a `started` (or `interrupted`, see the class notes) row; otherwise does nothing. */
  async settled(row: EffectSettled): Promise<void> {
    this.open('settled');
    const entryPoint = 'SqliteToolEffectLedger.settled';
    const runId = checkedText(entryPoint, 'runId', rowField(entryPoint, row, 'runId'));
    const callId = checkedText(entryPoint, 'callId', rowField(entryPoint, row, 'callId'));
    const status = rowField(entryPoint, row, 'status');
    if (status !== 'completed' && status !== 'failed' && status !== 'interrupted') {
      throw new InvalidInputError({
        entryPoint,
        reason: "`status` must be 'completed', 'failed' or 'interrupted'",
      });
    }
    const given = rowField(entryPoint, row, 'effectSummary');
    const summary = given === undefined ? null : checkedText(entryPoint, 'effectSummary', given, { empty: true });
    guarded(entryPoint, this.path, () => {
      this.setSynchronous(this.durableSettled ? 'FULL' : 'NORMAL');
      this.statements.settle.run({ runId, callId, status, summary, now: Date.now() });
    });
  }

  /** Rows of `runId` still `started`, oldest first (start time, then insertion order). */
  async unresolved(runId: string): Promise<EffectRecord[]> {
    this.open('unresolved');
    const id = checkedText('SqliteToolEffectLedger.unresolved', 'runId', runId, { lone: true });
    if (hasLoneSurrogate(id)) return []; // `started` refuses such ids: no row can have one
    return guarded('SqliteToolEffectLedger.unresolved', this.path, () => this.statements.unresolved.all(id)).map(
      toRecord,
    );
  }

  /** Every row of a run, in insertion order: for inspection and tests. */
  async rows(runId: string): Promise<EffectRecord[]> {
    this.open('rows');
    const id = checkedText('SqliteToolEffectLedger.rows', 'runId', runId, { lone: true });
    if (hasLoneSurrogate(id)) return []; // `started` refuses such ids: no row can have one
    return guarded('SqliteToolEffectLedger.rows', this.path, () => this.statements.rows.all(id)).map(toRecord);
  }

  /**
   * A {@link SqliteCheckpointStore} on this ledger's connection: checkpoints and ledger rows in one
   * file, written in order through one WAL, so a durable `started` row always comes with the
   * checkpoint saved before it. Closing the ledger closes it too.
   */
  checkpointStore(): SqliteCheckpointStore {
    this.open('checkpointStore');
    return new SqliteCheckpointStore({ ledger: this });
  }

  /** Closes the database connection. Idempotent; later calls to the other methods reject with {@link LedgerClosedError}. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private open(operation: string): void {
    if (this.closed) throw new LedgerClosedError({ operation });
  }

  private setSynchronous(level: 'FULL' | 'NORMAL'): void {
    if (this.synchronous === level) return;
    // SQLite applies `synchronous` when the PRAGMA is compiled, so a prepared statement cannot be reused.
    this.db.exec(`PRAGMA synchronous = ${level}`);
    this.synchronous = level;
  }
}

function toRecord(row: Row): EffectRecord {
  return {
    runId: row.run_id,
    callId: row.call_id,
    tool: row.tool,
    idempotencyKey: row.idempotency_key,
    status: row.status,
    startedAt: row.started_at,
    ...(row.effect_summary === null ? {} : { effectSummary: row.effect_summary }),
    ...(row.settled_at === null ? {} : { settledAt: row.settled_at }),
  };
}
