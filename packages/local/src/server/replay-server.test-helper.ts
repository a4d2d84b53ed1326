import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded request: method, path and parsed JSON body. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** An answer: a status and a JSON body, or a function of the request. */
export type Route =
  | { readonly status?: number; readonly json: unknown }
  | ((request: RecordedRequest) => { status?: number; json: unknown });

/**
 * A 127.0.0.1 HTTP server that replays recorded JSON bodies by `METHOD /path`, answers 404 to
 * anything else (as the runtimes do for endpoints they lack), and records every request.
 */
export async function replayServer(routes: Readonly<Record<string, Route>>): Promise<{
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const read = async (request: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer((request, response) => {
    void read(request).then((text) => {
      const recorded = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        body: text === '' ? undefined : JSON.parse(text),
      };
      requests.push(recorded);
      const route = routes[`${recorded.method} ${recorded.path}`];
      const answer =
        route === undefined
          ? { status: 404, json: { error: 'Not Found' } }
          : typeof route === 'function'
            ? route(recorded)
            : route;
      const body = JSON.stringify(answer.json);
      response.writeHead(answer.status ?? 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
