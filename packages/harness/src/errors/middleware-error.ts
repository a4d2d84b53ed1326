import { isMarked, TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.MiddlewareError');

/** A middleware hook threw. The run stops; the error never becomes a tool result. */
export class MiddlewareError extends TinyError {
  readonly [marker] = true;
  /** The `name` of the middleware that threw. */
  readonly middleware: string;
  /** The hook that threw: `filterTools`, `beforeModel`, `afterModel`, `beforeTool`, `wrapTool`, `afterTool` or `afterTools`. */
  readonly hook: string;

  constructor(options: { middleware: string; hook: string; cause: unknown }) {
    const detail = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super('MiddlewareError', `middleware \`${options.middleware}\` failed in ${options.hook}: ${detail}`, options);
    this.middleware = options.middleware;
    this.hook = options.hook;
  }

  static override isInstance(value: unknown): value is MiddlewareError {
    return isMarked(value, marker);
  }
}
