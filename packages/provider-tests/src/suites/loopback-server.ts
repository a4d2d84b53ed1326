import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Answers one request: the raw request, the response to write, and the whole request body. */
export type LoopbackHandler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A 127.0.0.1 server whose handler is set per test (see {@link useLoopbackServer}). */
export interface LoopbackServer {
  /** The origin, `http://127.0.0.1:<port>` (no path). @throws {Error} before `beforeAll` has started it. */
  url(): string;
  /** Sets how every request is answered from now on. */
  handle(handler: LoopbackHandler): void;
  /** The headers of every request received since the last {@link LoopbackServer.reset}, in order. */
  readonly received: IncomingMessage['headers'][];
  /** Forgets the requests received so far. */
  reset(): void;
}

/**
 * Starts a 127.0.0.1 HTTP server for the tests of one `describe` block or file (call it there):
 * each request's whole body is read, its headers recorded, then it is passed to the handler last
 * set (by default: a 404). Closed, with every connection, after the block.
 */
export function useLoopbackServer(): LoopbackServer {
  let handler: LoopbackHandler = (_request, response) => response.writeHead(404).end();
  let server: Server | undefined;
  let origin: string | undefined;
  const received: IncomingMessage['headers'][] = [];
  beforeAll(async () => {
    const started = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      request.on('end', () => {
        received.push(request.headers);
        handler(request, response, body);
      });
    });
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    server = started;
    origin = `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const started = server;
    if (started === undefined) return;
    started.closeAllConnections();
    await new Promise((resolve) => started.close(resolve));
  });
  return {
    url() {
      if (origin === undefined) throw new Error('loopback server not started');
      return origin;
    },
    handle(next) {
      handler = next;
    },
    received,
    reset() {
      received.length = 0;
    },
  };
}
