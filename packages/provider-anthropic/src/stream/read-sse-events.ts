import { createParser } from 'eventsource-parser';

/** One server-sent event: its `event:` name (absent for plain `data:` events) and its data. @internal */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Reads server-sent events off a response body. Bytes are decoded as a UTF-8 stream, so a
 * character split across network chunks arrives whole; lines split across chunks are joined by
 * `eventsource-parser`. At the end of the body, a last event without its closing blank line (or
 * newline) is still delivered. An `error: {...}` line (a field no SSE spec knows, which llama.cpp
 * builds send for mid-stream failures) is delivered as an event named `error`.
 *
 * Stopping the iteration early cancels the body. Read failures (a dropped connection, an abort)
 * are thrown from the iteration.
 * @internal
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
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length > 0) yield queue.shift() as SseEvent;
    }
    finished = true;
    parser.feed(`${decoder.decode()}\n\n`);
    while (queue.length > 0) yield queue.shift() as SseEvent;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
