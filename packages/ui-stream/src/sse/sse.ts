/** How a protocol ends a stream that failed before its own end: the events to write, and which event is an end. */
export interface SseEnding {
  /** The events that end the stream well-formed after `error` (never thrown, never including host text). */
  readonly failed: (error: unknown) => readonly unknown[];
  /** Whether `value` already ended the stream (nothing is added after it). */
  readonly isEnd: (value: unknown) => boolean;
}

/**
 * Encodes JSON values as server-sent events (`data: <json>\n\n`), then `trailer` once the source
 * ends (the AI SDK's `data: [DONE]\n\n`; nothing for AG-UI). Cancelling the result cancels the source.
 * Never errors: when reading the source or encoding a value fails, the source is cancelled and
 * `ending.failed` is written instead (unless an end was already written), then the trailer.
 */
export function toSseBytes(
  source: ReadableStream<unknown>,
  trailer: string,
  ending: SseEnding,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const reader = source.getReader();
  let ended = false;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (trailer !== '') controller.enqueue(encoder.encode(trailer));
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          finish(controller);
          return;
        }
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
        if (ending.isEnd(next.value)) ended = true;
      } catch (error) {
        void reader.cancel(error).catch(() => undefined);
        if (!ended)
          for (const value of ending.failed(error))
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
        finish(controller);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason);
    },
  });
}

/** Node's `http.ServerResponse`, as much of it as the pipe helpers use. */
export interface NodeResponseLike {
  /** Sends the status line and headers. */
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** Writes body bytes; `false` when the socket is full (wait for `drain`). */
  write(chunk: Uint8Array): boolean;
  /** Ends the response. */
  end(): unknown;
  /** `drain`: the socket can take more; `close`: the client went away. */
  once(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed?: boolean | undefined;
}

/**
 * Writes a response's status, headers and body to a Node `http.ServerResponse`, waiting for
 * `drain` when the socket is full, and stops reading (cancels the body) when the client goes away.
 * Never rejects for the body: a body that errors ends the response.
 */
export async function pipeResponseToNode(response: Response, res: NodeResponseLike): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  const reader = body.getReader();
  let closed = false;
  const gone = new Promise<void>((resolve) =>
    res.once('close', () => {
      closed = true;
      void reader.cancel().catch(() => undefined);
      resolve();
    }),
  );
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done || closed || res.destroyed === true) break;
      if (!res.write(next.value))
        await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), gone]);
    }
  } catch {
    // A body that errors (or a socket that throws) ends the response; it never rejects the host's pipe.
    void reader.cancel().catch(() => undefined);
  } finally {
    if (!closed) res.end();
  }
}
