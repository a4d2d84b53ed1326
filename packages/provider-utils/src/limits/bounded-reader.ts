import { HttpFailure } from '../errors/http-failure.js';
import type { ResolvedHttpLimits } from './http-limits.js';
import { requestStartOf } from './request-start.js';

/** setTimeout's largest delay; longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Reads a response body chunk by chunk within {@link ResolvedHttpLimits}: each read waits at most
 * until the idle deadline (the last `progress()` plus `idleTimeoutMs`) or the total deadline
 * (the request's start, when `postJson` sent it, else creation, plus `totalTimeoutMs`), whichever
 * comes first, and the bytes read in all stay within
 * `maxResponseBytes`. A passed bound throws an {@link HttpFailure}; the caller cancels the body.
 * @internal
 */
export class BoundedReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly limits: ResolvedHttpLimits;
  private readonly startedAt: number;
  private progressAt = Date.now();
  private bytes = 0;
  /** When the grace after a stream's terminal event ends (see {@link BoundedReader.settle}). */
  private graceAt: number | undefined;
  /** What is being read, for messages: `stream` or `body`. */
  private readonly what: string;

  constructor(body: ReadableStream<Uint8Array>, limits: ResolvedHttpLimits, what: string) {
    this.startedAt = requestStartOf(body) ?? this.progressAt;
    this.reader = body.getReader();
    this.limits = limits;
    this.what = what;
  }

  /** Marks meaningful progress now: the idle deadline starts again. */
  progress(): void {
    this.progressAt = Date.now();
  }

  /**
   * The stream's terminal event arrived: from now on a read waits at most `graceMs` more in all
   * (or less, when a bound comes first), then {@link BoundedReader.read} returns `'grace'`. Only the
   * first call sets the deadline.
   */
  settle(graceMs: number): void {
    this.graceAt ??= Date.now() + graceMs;
  }

  /**
   * The next chunk, undefined at the end of the body, or `'grace'` once the grace set by
   * {@link BoundedReader.settle} passed before the body ended. @throws {HttpFailure} past a bound.
   */
  async read(): Promise<Uint8Array | undefined | 'grace'> {
    const { idleTimeoutMs, totalTimeoutMs } = this.limits;
    const idleAt = this.progressAt + idleTimeoutMs;
    const totalAt = this.startedAt + totalTimeoutMs;
    const idle = idleAt <= totalAt;
    const boundAt = idle ? idleAt : totalAt;
    const grace = this.graceAt !== undefined && this.graceAt < boundAt;
    const wait = (grace ? (this.graceAt as number) : boundAt) - Date.now();
    let result: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>> | 'timeout';
    if (!Number.isFinite(wait)) result = await this.reader.read();
    else if (wait <= 0) result = 'timeout';
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.min(wait, MAX_TIMER_MS));
      });
      try {
        result = await Promise.race([this.reader.read(), timeout]);
      } finally {
        clearTimeout(timer);
      }
      // A timer clamped to setTimeout's range fired early: keep waiting.
      if (result === 'timeout' && wait > MAX_TIMER_MS) return this.read();
    }
    if (result === 'timeout' && grace) return 'grace';
    if (result === 'timeout') {
      throw new HttpFailure({
        kind: 'response_timeout',
        retryable: true,
        limit: idle ? idleTimeoutMs : totalTimeoutMs,
        message: idle
          ? `sent no ${this.what === 'stream' ? 'meaningful event' : 'data'} for ${idleTimeoutMs} ms (limits.idleTimeoutMs)`
          : `took longer than ${totalTimeoutMs} ms to send the ${this.what} (limits.totalTimeoutMs)`,
      });
    }
    if (result.done) return undefined;
    this.bytes += result.value.byteLength;
    if (this.bytes > this.limits.maxResponseBytes) {
      throw new HttpFailure({
        kind: 'response_too_large',
        retryable: false,
        limit: this.limits.maxResponseBytes,
        message: `sent a ${this.what} larger than ${this.limits.maxResponseBytes} bytes (limits.maxResponseBytes)`,
      });
    }
    return result.value;
  }

  /** Cancels the body (errors ignored) and releases the lock. */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
    this.release();
  }

  /** Releases the lock without cancelling (the body was read to its end). */
  release(): void {
    try {
      this.reader.releaseLock();
    } catch {
      // a pending read still holds the lock after a cancel; nothing more to release
    }
  }
}
