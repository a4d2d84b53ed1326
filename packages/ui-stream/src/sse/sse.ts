/**
 * Encodes JSON values as server-sent events (`data: <json>\n\n`), then `trailer` once the source
 * ends (the AI SDK's `data: [DONE]\n\n`; nothing for AG-UI). Cancelling the result cancels the source.
 */
export function toSseBytes(source: ReadableStream<unknown>, trailer: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) {
        if (trailer !== '') controller.enqueue(encoder.encode(trailer));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
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
  } finally {
    if (!closed) res.end();
  }
}
