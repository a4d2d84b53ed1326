import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.ResultTimeoutError');

/**
 * `RestateAgentClient.result()` (or `run()`) waited `timeoutMs` without an answer. Only the wait
 * ended: the run goes on in Restate, and a later `result(runId)` attaches to it again.
 */
export class ResultTimeoutError extends TinyError {
  readonly [marker] = true;
  readonly runId: string;
  readonly timeoutMs: number;

  constructor(options: { runId: string; timeoutMs: number }) {
    super(
      'ResultTimeoutError',
      `run \`${options.runId}\` did not finish within ${options.timeoutMs} ms (it goes on in Restate; call result() again to keep waiting)`,
    );
    this.runId = options.runId;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(value: unknown): value is ResultTimeoutError {
    return isMarked(value, marker);
  }
}
