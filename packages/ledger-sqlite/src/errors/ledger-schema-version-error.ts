import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.LedgerSchemaVersionError');

/**
 * The database file carries a ledger schema newer than this package knows (`PRAGMA user_version`),
 * written by a later version of `@tiny/ledger-sqlite`. The file is left untouched: upgrade the
 * package in this process rather than downgrading the schema.
 */
export class LedgerSchemaVersionError extends TinyError {
  readonly [marker] = true;
  /** The database file that was opened. */
  readonly path: string;
  /** The schema version found in the file. */
  readonly foundVersion: number;
  /** The newest schema version this package can read and write. */
  readonly supportedVersion: number;

  constructor(options: { path: string; foundVersion: number; supportedVersion: number; cause?: unknown }) {
    super(
      'LedgerSchemaVersionError',
      `ledger database "${options.path}" has schema version ${options.foundVersion}; this @tiny/ledger-sqlite supports up to ${options.supportedVersion}`,
      options,
    );
    this.path = options.path;
    this.foundVersion = options.foundVersion;
    this.supportedVersion = options.supportedVersion;
  }

  static override isInstance(value: unknown): value is LedgerSchemaVersionError {
    return isMarked(value, marker);
  }
}
