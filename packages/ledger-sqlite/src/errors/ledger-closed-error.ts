import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.LedgerClosedError');

/** A ledger method was called after `close()`. Nothing was read or written. */
export class LedgerClosedError extends TinyError {
  readonly [marker] = true;
  /** The method that was called: `started`, `settled`, `unresolved` or `rows`. */
  readonly operation: string;

  constructor(options: { operation: string; cause?: unknown }) {
    super(
      'LedgerClosedError',
      `tool-effect ledger is closed (called \`${options.operation}\` after \`close()\`)`,
      options,
    );
    this.operation = options.operation;
  }

  static override isInstance(value: unknown): value is LedgerClosedError {
    return isMarked(value, marker);
  }
}
