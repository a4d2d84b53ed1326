import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.AdminApiError');

/** Restate's admin API refused a deployment request (`registerDeployment`, `repointDeployment`). */
export class AdminApiError extends TinyError {
  readonly [marker] = true;
  /** What was asked, e.g. `register http://127.0.0.1:9080`. */
  readonly operation: string;
  /** The HTTP status, or 0 when no deployment matched. */
  readonly status: number;
  readonly detail: string;

  constructor(options: { operation: string; status: number; detail: string }) {
    super('AdminApiError', `Restate admin API: ${options.operation} failed (${options.status}): ${options.detail}`);
    this.operation = options.operation;
    this.status = options.status;
    this.detail = options.detail;
  }

  static override isInstance(value: unknown): value is AdminApiError {
    return isMarked(value, marker);
  }
}
