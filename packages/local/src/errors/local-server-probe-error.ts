import { TinyError } from '@tiny/tools';

const marker = Symbol.for('tiny.error.LocalServerProbeError');

/**
 * A local server could not be probed at all: every endpoint failed to connect, or the probe ran
 * past its `timeoutMs`. (A server that answers but exposes nothing known is not an error: the
 * probe falls back to OpenAI-compatible defaults with a note.)
 */
export class LocalServerProbeError extends TinyError {
  readonly [marker] = true;
  /** The base URL that was probed. */
  readonly baseURL: string;
  /** `unreachable`: no endpoint answered; `timeout`: `timeoutMs` passed first. */
  readonly reason: 'unreachable' | 'timeout';

  constructor(options: { baseURL: string; reason: 'unreachable' | 'timeout'; detail: string; cause?: unknown }) {
    super(
      'LocalServerProbeError',
      `cannot probe ${options.baseURL}: ${options.reason === 'timeout' ? 'timed out' : 'no endpoint answered'} (${options.detail})`,
      options,
    );
    this.baseURL = options.baseURL;
    this.reason = options.reason;
  }

  static override isInstance(value: unknown): value is LocalServerProbeError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
