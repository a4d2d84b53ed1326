import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.LedgerOpenError');

/** Why {@link LedgerOpenError} refused a database. */
export type LedgerOpenProblem = 'missing_directory' | 'missing_file' | 'no_schema' | 'not_a_database';

const explain: Record<LedgerOpenProblem, string> = {
  missing_directory: 'its directory does not exist',
  missing_file: 'the file does not exist',
  no_schema: 'it holds no ledger schema (an empty or foreign database)',
  not_a_database: 'the file is not an SQLite database',
};

/**
 * A ledger database could not be opened as one: in `mode: 'open'` (for resume) the file is missing
 * or has no ledger schema, so resuming against it would see no rows; in any mode, the directory is
 * missing or the file is not an SQLite database. Nothing was created or written.
 */
export class LedgerOpenError extends TinyError {
  readonly [marker] = true;
  /** The database path that was opened. */
  readonly path: string;
  /** `missing_directory`, `missing_file`, `no_schema` or `not_a_database`. */
  readonly problem: LedgerOpenProblem;

  constructor(options: { path: string; problem: LedgerOpenProblem; cause?: unknown }) {
    super('LedgerOpenError', `cannot open ledger database "${options.path}": ${explain[options.problem]}`, options);
    this.path = options.path;
    this.problem = options.problem;
  }

  static override isInstance(value: unknown): value is LedgerOpenError {
    return isMarked(value, marker);
  }
}
