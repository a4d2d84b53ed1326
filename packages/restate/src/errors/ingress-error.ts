import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.IngressError');

/** The Restate ingress answered a request with a non-2xx status (the run failed, or it does not exist). */
export class IngressError extends TinyError {
  readonly [marker] = true;
  /** The HTTP status. */
  readonly status: number;
  /** The ingress's message (for a failed run: the terminal error's message). */
  readonly detail: string;

  constructor(options: { status: number; detail: string; cause?: unknown }) {
    super('IngressError', `Restate ingress answered ${options.status}: ${options.detail}`, options);
    this.status = options.status;
    this.detail = options.detail;
  }

  static override isInstance(value: unknown): value is IngressError {
    return isMarked(value, marker);
  }
}
