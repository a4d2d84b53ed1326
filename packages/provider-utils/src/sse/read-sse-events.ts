import { createParser } from 'eventsource-parser';
import { HttpFailure } from '../errors/http-failure.js';
import { BoundedReader } from '../limits/bounded-reader.js';
import { type HttpLimits, resolveHttpLimits } from '../limits/http-limits.js';

/** One server-sent event: its `event:` name (absent for plain `data:` events) and its data. */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** How {@link readSseEvents} reads. */
export interface ReadSseEventsOptions {
  /** Size and time bounds (see {@link HttpLimits}); the defaults apply to any bound left out. */
  readonly limits?: HttpLimits | undefined;
  /**
   * True for an event that only keeps the connection alive (Anthropic's `ping`): it is still
   * delivered, but does not reset the idle deadline. SSE comments never do.
   */
  readonly isKeepAlive?: ((event: SseEvent) => boolean) | undefined;
}

/** How much of an event-less body is kept to be read as one JSON body. */
const MAX_BODY_EVENT_CHARS = 1_048_576;

/**
 * Reads server-sent events off a response body. Bytes are decoded as a UTF-8 stream, so a
 * character split across network chunks arrives whole; lines split across chunks are joined by
 * `eventsource-parser`. At the end of the body, a last event without its closing blank line (or
 * newline) is still delivered. An `error: {...}` line (a field no SSE spec knows, which llama.cpp
 * builds send for mid-stream failures) is delivered as an event named `error`. A body that holds no
 * event at all but reads as JSON (a server that answers a streaming request with a plain JSON
 * body, an error object say, under `text/event-stream`) is delivered whole as one event named
 * `body`.
 *
 * Bounded by `options.limits` (defaults in {@link HttpLimits}): the bytes since the last event or
 * comment (one line or event), the bytes of the whole body, the time without a meaningful event
 * (comments and `isKeepAlive` events do not count; the time the consumer takes between events
 * does not either) and the time of the whole stream. A passed bound cancels the body.
 *
 * Stopping the iteration early cancels the body. Read failures (a dropped connection, an abort)
 * are thrown from the iteration.
 *
 * @throws {HttpFailure} of kind `response_too_large` or `response_timeout` past a bound.
 */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  options?: ReadSseEventsOptions,
): AsyncGenerator<SseEvent> {
  const limits = resolveHttpLimits(options?.limits);
  const isKeepAlive = options?.isKeepAlive;
  const reader = new BoundedReader(body, limits, 'stream');
  const decoder = new TextDecoder();
  const queue: SseEvent[] = [];
  /** Bytes fed since the last event or comment: what the parser may be holding. */
  let pending = 0;
  const parser = createParser({
    onEvent: (message) => {
      pending = 0;
      queue.push({ event: message.event, data: message.data });
    },
    onComment: () => {
      pending = 0;
    },
    onError: (error) => {
      if (error.type === 'unknown-field' && error.field === 'error') {
        pending = 0;
        queue.push({ event: 'error', data: error.value ?? '' });
      }
    },
  });
  let finished = false;
  let delivered = false;
  let opening = '';
  const deliver = function* (): Generator<SseEvent> {
    while (queue.length > 0) {
      delivered = true;
      const event = queue.shift() as SseEvent;
      yield event;
      // The consumer's time is not the server's: the idle deadline starts after it.
      if (isKeepAlive === undefined || !isKeepAlive(event)) reader.progress();
    }
  };
  try {
    for (;;) {
      const value = await reader.read();
      if (value === undefined) break;
      const text = decoder.decode(value, { stream: true });
      if (!delivered && opening.length < MAX_BODY_EVENT_CHARS) opening += text;
      // Fed line by line, so the size bound holds however large a chunk is.
      let start = 0;
      while (start < text.length) {
        const newline = text.indexOf('\n', start);
        const end = newline === -1 ? text.length : newline + 1;
        pending += end - start;
        parser.feed(text.slice(start, end));
        if (pending > limits.maxEventBytes) {
          throw new HttpFailure({
            kind: 'response_too_large',
            retryable: false,
            limit: limits.maxEventBytes,
            message: `sent a stream line or event larger than ${limits.maxEventBytes} bytes (limits.maxEventBytes)`,
          });
        }
        start = end;
      }
      yield* deliver();
    }
    finished = true;
    const rest = decoder.decode();
    opening += rest;
    parser.feed(`${rest}\n\n`);
    if (queue.length === 0 && !delivered) {
      const whole = opening.trim();
      if (whole.startsWith('{') || whole.startsWith('[')) queue.push({ event: 'body', data: whole });
    }
    yield* deliver();
  } finally {
    if (finished) reader.release();
    else await reader.cancel();
  }
}
