import type { AddressInfo } from 'node:net';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpFailure } from '../errors/http-failure.js';
import { readSseEvents } from '../sse/read-sse-events.js';
import { postJson } from './post-json.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A raw 127.0.0.1 server: `onRequest` gets the socket once the request's first bytes arrive. */
async function rawServer(onRequest: (socket: Socket) => void): Promise<string> {
  const server = createNetServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => onRequest(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

const noResponse = (message: string) => new Error(message);

describe('postJson: the total bound runs from the request start', () => {
  it('a flood of 103 Early Hints without a final response ends in response_timeout', async () => {
    const url = await rawServer((socket) => {
      const hint = () => socket.write('HTTP/1.1 103 Early Hints\r\nlink: </a>; rel=preload\r\n\r\n');
      hint();
      // Hints keep coming whenever the client is still waiting; no final response ever.
      socket.on('drain', hint);
      const again = setInterval(hint, 20);
      socket.on('close', () => clearInterval(again));
    });
    const error = await postJson(
      { url, headers: {}, body: {}, fetch: globalThis.fetch, limits: { totalTimeoutMs: 300 } },
      noResponse,
    ).catch((caught: unknown) => caught);
    expect(HttpFailure.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'response_timeout', retryable: true, limit: 300 });
  });

  it('the time spent waiting for headers counts against the reading of the stream', async () => {
    let release: () => void = () => undefined;
    const headersSent = new Promise<void>((resolve) => {
      release = resolve;
    });
    const url = await rawServer((socket) => {
      // Headers only once the client's bound is nearly used up (the test releases them), then a
      // stream that never ends.
      void headersSent.then(() =>
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: {}\n\n'),
      );
    });
    const limits = { totalTimeoutMs: 400, idleTimeoutMs: 60_000 };
    const started = Date.now();
    const pending = postJson({ url, headers: {}, body: {}, fetch: globalThis.fetch, limits }, noResponse);
    // Wait (without a timed assertion) until most of the bound is gone, then send headers.
    while (Date.now() - started < 300) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const response = await pending;
    const events: unknown[] = [];
    const error = await (async () => {
      for await (const event of readSseEvents(response.body as ReadableStream<Uint8Array>, { limits }))
        events.push(event);
    })().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'response_timeout', limit: 400 });
    expect(events).toHaveLength(1);
  });

  it('the caller abort still ends a pending request with its own reason', async () => {
    const url = await rawServer(() => undefined);
    const controller = new AbortController();
    const pending = postJson(
      {
        url,
        headers: {},
        body: {},
        fetch: globalThis.fetch,
        signal: controller.signal,
        limits: { totalTimeoutMs: 60_000 },
      },
      noResponse,
    );
    controller.abort(new Error('stop now'));
    await expect(pending).rejects.toThrow('stop now');
  });
});
