import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One answer the loopback server gives to every request until the next is set. */
export interface ServedAnswer {
  /** HTTP status. Default 200. */
  readonly status?: number | undefined;
  /** The `content-type` header. Default `application/json`. */
  readonly type?: string | undefined;
  /** The body, written whole. */
  readonly body: string;
  /** More response headers (a redirect's `location`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * How the response ends once the body is written: `end` (default) ends it; `open` keeps the
   * connection open (a server that never ends the body; closed when the suite ends); `drop`
   * destroys the socket (a connection lost mid-body: the chunked body never ends).
   */
  readonly ending?: 'end' | 'open' | 'drop' | undefined;
}

/** A loopback server shared by the tests of one suite (see {@link useAnswerServer}). */
export interface AnswerServerHandle {
  /** The API root, `http://127.0.0.1:<port>/v1`. @throws {Error} before `beforeAll` has started it. */
  baseURL(): string;
  /** Sets what the server answers from now on. */
  answer(answer: ServedAnswer): void;
}

/**
 * Starts a 127.0.0.1 HTTP server for the tests of one `describe` block (call it inside the
 * block): every request is answered with the answer last set, whole. The shared suites use it to
 * serve the wire bytes an adapter's encoders build.
 */
export function useAnswerServer(): AnswerServerHandle {
  let current: ServedAnswer = { body: '' };
  let server: Server | undefined;
  let root: string | undefined;
  beforeAll(async () => {
    const started = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const answer = current;
        response.writeHead(answer.status ?? 200, {
          'content-type': answer.type ?? 'application/json',
          ...answer.headers,
        });
        if (answer.ending === 'open') response.write(answer.body);
        else if (answer.ending === 'drop') response.write(answer.body, () => response.socket?.destroy());
        else response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    server = started;
    root = `http://127.0.0.1:${(started.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    const started = server;
    if (started === undefined) return;
    started.closeAllConnections();
    await new Promise((resolve) => started.close(resolve));
  });
  return {
    baseURL() {
      if (root === undefined) throw new Error('answer server not started');
      return root;
    },
    answer(answer) {
      current = answer;
    },
  };
}
