import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createEndpointHandler } from '@restatedev/restate-sdk';

/** Options for {@link serveRestateEndpoint}: the SDK's endpoint options plus where to listen. */
export type ServeRestateEndpointOptions = Parameters<typeof createEndpointHandler>[0] & {
  /** Port to listen on. Default 0 (a free port). */
  readonly port?: number | undefined;
  /** Interface to bind. Default `127.0.0.1`; use `0.0.0.0` only behind request signing (`identityKeys`). */
  readonly host?: string | undefined;
};

/** A listening Restate service endpoint. */
export interface RestateEndpoint {
  /** `http://<host>:<port>`, the URI to register with the admin API. */
  readonly url: string;
  readonly port: number;
  readonly server: Http2Server;
  /** Stops listening and closes open sessions. */
  close(): Promise<void>;
}

/**
 * Serves Restate services over HTTP/2 like `restate.serve()`, but bound to `host` (default
 * `127.0.0.1`): `restate.serve()` in SDK 1.14 listens on every interface, which exposes unsigned
 * handlers to the network.
 */
export async function serveRestateEndpoint(options: ServeRestateEndpointOptions): Promise<RestateEndpoint> {
  const { port = 0, host = '127.0.0.1', ...endpoint } = options;
  const server = createServer(createEndpointHandler(endpoint));
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${bound}`,
    port: bound,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
