import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.StorageError');

/**
 * A store (artifacts, checkpoints, the effect ledger) could not read or write its storage: a full
 * disk (`ENOSPC`, `SQLITE_FULL`), a read-only file system or database (`EROFS`, `SQLITE_READONLY`),
 * missing permissions, an I/O error. What was stored before is left as it was: a failed write is
 * never half visible. The underlying error is the `cause`.
 */
export class StorageError extends TinyError {
  readonly [marker] = true;
  /** The store and method that failed, for example `FileArtifactStore.put`. */
  readonly operation: string;
  /** Where the store keeps its data: a directory or a database file. */
  readonly location: string;
  /** The system or SQLite error code (`ENOSPC`, `EROFS`, `SQLITE_FULL`...), when there is one. */
  readonly code: string | undefined;

  constructor(options: { operation: string; location: string; cause: unknown }) {
    const code = codeOf(options.cause);
    const detail = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super('StorageError', `${options.operation} failed on ${options.location}: ${detail}`, options);
    this.operation = options.operation;
    this.location = options.location;
    this.code = code;
  }

  static override isInstance(value: unknown): value is StorageError {
    return isMarked(value, marker);
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
