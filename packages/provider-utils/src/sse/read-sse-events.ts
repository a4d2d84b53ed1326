import { createParser } from 'eventsource-parser';
import { HttpFailure } from '../errors/http-failure.js';
import { BoundedReader } from '../limits/bounded-reader.js';
import { type HttpLimits, resolveHttpLimits } from '../limits/http-limits.js';

/**
 * One server-sent event: its `event:` name (absent for plain `data:` events) and its data (`''`
 * for an event that had no `data:` line). `whole` marks a body that held no event at all but
 * read as JSON, delivered whole (it has no name).
 */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
  readonly whole?: true | undefined;
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
  /**
   * True once the stream's terminal event has arrived (asked after each delivered event, once
   * the consumer has read it): from then on the body gets {@link STREAM_END_GRACE_MS} more to end.
   * What arrives within that grace is still delivered (and checked by the consumer); when the
   * grace passes, or the connection drops, at an event boundary the iteration ends normally and
   * the body is cancelled. Half an event held at that point throws instead (it could have been an
   * error).
   */
  readonly isEnded?: (() => boolean) | undefined;
}

/**
 * How long a stream body may stay open after its terminal event (`message_stop`,
 * `response.completed`, `[DONE]`, a finish reason): 1 s. A server that keeps the connection open
 * after the turn ended then ends the turn as its terminal event said, instead of making it wait
 * `idleTimeoutMs`; what arrives within the grace is still checked (an error there still breaks the
 * turn).
 */
export const STREAM_END_GRACE_MS = 1_000;

/** How much of an event-less body is kept to be read as one JSON body. */
const MAX_BODY_EVENT_CHARS = 1_048_576;

/**
 * Reads server-sent events off a response body. Bytes are decoded as a UTF-8 stream, so a
 * character split across network chunks arrives whole; lines split across chunks are joined by
 * `eventsource-parser`. At the end of the body, a last event without its closing blank line (or
 * newline) is still delivered. CR, LF and CRLF line ends are all read (one split across chunks
 * too). An event with an `event:` name but no `data:` line (which the SSE spec, and
 * `eventsource-parser`, would drop: `event: error` and a blank line) is delivered with data `''`,
 * so a reader can fail on it instead of never seeing it (see `checkSseEvent`). An `error: {...}`
 * line (a field no SSE spec knows, which llama.cpp builds send for mid-stream failures) is
 * delivered as an event named `error`. A body that holds no event at all but reads as JSON (a
 * server that answers a streaming request with a plain JSON body, an error object say, under
 * `text/event-stream`) is delivered whole as one event without a name, marked `whole`.
 *
 * Bounded by `options.limits` (defaults in {@link HttpLimits}): the bytes since the last event or
 * comment (one line or event), the bytes of the whole body, the time without a meaningful event
 * (comments and `isKeepAlive` events do not count; the time the consumer takes between events
 * does not either) and the time of the whole stream. A passed bound cancels the body.
 *
 * Once `options.isEnded` says the terminal event arrived, the body has {@link STREAM_END_GRACE_MS}
 * more to end: past it, or when the connection drops, the iteration ends normally at an event
 * boundary (the body is cancelled) and throws when half an event is held.
 *
 * Stopping the iteration early cancels the body. Read failures (a dropped connection, an abort)
 * are thrown from the iteration (after the terminal event, only with half an event held).
 *
 * @throws {HttpFailure} of kind `response_too_large` or `response_timeout` past a bound (and
 * `response_timeout` for half an event held when the grace after the terminal event passed).
 */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  options?: ReadSseEventsOptions,
): AsyncGenerator<SseEvent> {
  const limits = resolveHttpLimits(options?.limits);
  const isKeepAlive = options?.isKeepAlive;
  const isEnded = options?.isEnded;
  /** Set once the terminal event arrived: a drop or the grace's end then ends the body. */
  let settled = false;
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
  const lines = new EventLines((name) => {
    pending = 0;
    queue.push({ event: name, data: '' });
  });
  /** The text holds CR, CRLF and LF line ends; a CR ending the last chunk may be a CRLF's half. */
  let afterCR = false;
  const normalize = (text: string): string => {
    const start = afterCR && text.startsWith('\n') ? text.slice(1) : text;
    if (text !== '') afterCR = text.endsWith('\r');
    return start.includes('\r') ? start.replace(/\r\n?/g, '\n') : start;
  };
  /** Feeds one line (or the head of one) to the parser, then to the watch for events without data. */
  const feed = (piece: string): void => {
    parser.feed(piece);
    lines.feed(piece);
  };
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
      if (!settled && isEnded !== undefined && isEnded()) {
        settled = true;
        reader.settle(STREAM_END_GRACE_MS);
      }
    }
  };
  /** The body stopped after the terminal event: normal at an event boundary, else a failure. */
  const stopAfterEnd = (cause: unknown): void => {
    if (!lines.holding()) return;
    // a dropped connection: the read failure itself (the adapters' incomplete_stream)
    if (cause !== undefined) throw cause;
    throw new HttpFailure({
      kind: 'response_timeout',
      retryable: true,
      limit: STREAM_END_GRACE_MS,
      message: `sent part of an event after the stream's terminal event and did not finish it within ${STREAM_END_GRACE_MS} ms`,
    });
  };
  try {
    for (;;) {
      let value: Uint8Array | undefined | 'grace';
      try {
        value = await reader.read();
      } catch (error) {
        // A dropped connection after the terminal event: nothing was lost at an event boundary.
        if (!settled || HttpFailure.isInstance(error)) throw error;
        stopAfterEnd(error);
        return;
      }
      if (value === 'grace') {
        stopAfterEnd(undefined);
        return;
      }
      if (value === undefined) break;
      const text = normalize(decoder.decode(value, { stream: true }));
      if (!delivered && opening.length < MAX_BODY_EVENT_CHARS) opening += text;
      // Fed line by line, so the size bound holds however large a chunk is.
      let start = 0;
      while (start < text.length) {
        const newline = text.indexOf('\n', start);
        const end = newline === -1 ? text.length : newline + 1;
        pending += end - start;
        feed(text.slice(start, end));
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
    const rest = normalize(decoder.decode());
    opening += rest;
    // the rest may hold line ends of its own: fed line by line, then the closing blank line
    for (const piece of rest.split(/(?<=\n)/)) if (piece !== '') feed(piece);
    feed('\n');
    feed('\n');
    if (queue.length === 0 && !delivered) {
      const whole = opening.trim();
      if (whole.startsWith('{') || whole.startsWith('[')) queue.push({ event: undefined, data: whole, whole: true });
    }
    yield* deliver();
  } finally {
    if (finished) reader.release();
    else await reader.cancel();
  }
}

/** The longest head of a line kept to read its field and an event name (longer names are cut). */
const MAX_LINE_HEAD = 512;

/**
 * Watches the lines fed to the parser (LF line ends only) for events that had an `event:` name but
 * no `data:` line: at their blank line, `onDataless` gets the name. The parser drops them.
 */
class EventLines {
  private head = '';
  private name: string | undefined;
  private hasData = false;

  constructor(private readonly onDataless: (name: string) => void) {}

  /** True while part of a line, or an event's lines before its blank line, is held. */
  holding(): boolean {
    return this.head !== '' || this.name !== undefined || this.hasData;
  }

  /** Takes a piece of text holding at most one line end, at its end. */
  feed(piece: string): void {
    const ends = piece.endsWith('\n');
    const body = ends ? piece.slice(0, -1) : piece;
    if (this.head.length < MAX_LINE_HEAD) this.head += body.slice(0, MAX_LINE_HEAD - this.head.length);
    if (!ends) return;
    const line = this.head;
    this.head = '';
    if (line === '') {
      const name = this.name;
      const dataless = !this.hasData;
      this.name = undefined;
      this.hasData = false;
      if (name !== undefined && dataless) this.onDataless(name);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field === 'data') this.hasData = true;
    else if (field === 'event') {
      const value = colon === -1 ? '' : line.slice(line.charAt(colon + 1) === ' ' ? colon + 2 : colon + 1);
      this.name = value === '' ? undefined : value;
    }
  }
}
