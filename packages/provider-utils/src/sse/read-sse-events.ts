import { createParser } from 'eventsource-parser';

/** One server-sent event: its `event:` name (absent for plain `data:` events) and its data. */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
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
 * Stopping the iteration early cancels the body. Read failures (a dropped connection, an abort)
 * are thrown from the iteration.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const queue: SseEvent[] = [];
  const parser = createParser({
    onEvent: (message) => queue.push({ event: message.event, data: message.data }),
    onError: (error) => {
      if (error.type === 'unknown-field' && error.field === 'error')
        queue.push({ event: 'error', data: error.value ?? '' });
    },
  });
  let finished = false;
  let delivered = false;
  let opening = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (!delivered && opening.length < MAX_BODY_EVENT_CHARS) opening += text;
      parser.feed(text);
      while (queue.length > 0) {
        delivered = true;
        yield queue.shift() as SseEvent;
      }
    }
    finished = true;
    const rest = decoder.decode();
    opening += rest;
    parser.feed(`${rest}\n\n`);
    if (queue.length === 0 && !delivered) {
      const body = opening.trim();
      if (body.startsWith('{') || body.startsWith('[')) queue.push({ event: 'body', data: body });
    }
    while (queue.length > 0) yield queue.shift() as SseEvent;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
