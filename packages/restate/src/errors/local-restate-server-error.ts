import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.LocalRestateServerError');

/** Why {@link LocalRestateServerError} was thrown. */
export type LocalRestateServerProblem = 'binary_not_found' | 'spawn_failed' | 'exited' | 'start_timeout';

/**
 * `startLocalRestateServer()` could not start a server: the `restate-server` binary was not found
 * (install `@restatedev/restate-server`, or set `RESTATE_SERVER_BIN`), it could not be spawned, it
 * exited before answering, or it did not answer in time. Nothing is left behind: the process is
 * stopped and a temporary data directory removed.
 */
export class LocalRestateServerError extends TinyError {
  readonly [marker] = true;
  readonly problem: LocalRestateServerProblem;
  /** The binary that was (to be) started, when known. */
  readonly binaryPath: string | undefined;
  readonly detail: string;

  constructor(options: {
    problem: LocalRestateServerProblem;
    detail: string;
    binaryPath?: string | undefined;
    cause?: unknown;
  }) {
    super('LocalRestateServerError', `local restate-server: ${options.problem}: ${options.detail}`, options);
    this.problem = options.problem;
    this.binaryPath = options.binaryPath;
    this.detail = options.detail;
  }

  static override isInstance(value: unknown): value is LocalRestateServerError {
    return isMarked(value, marker);
  }
}
