import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpServerOptionsError } from './errors/mcp-server-options-error.js';
import type { McpToolServer } from './mcp-tool-server.js';

/** Options of the Streamable HTTP endpoint. A `token` or an `authorize` is required. */
export interface McpHttpOptions {
  /** The interface to bind. Default `127.0.0.1` (loopback only). */
  readonly host?: string | undefined;
  /** Default 0 (a free port; read it from the handle). */
  readonly port?: number | undefined;
  /** The endpoint path. Default `/mcp`. */
  readonly path?: string | undefined;
  /** Every request must carry `Authorization: Bearer <token>`. At least 16 characters. */
  readonly token?: string | undefined;
  /**
   * Decides each request instead of (or, with `token`, after) the bearer check: a principal name
   * admits it, `false`/`undefined` refuses it (401). A session stays bound to the principal that
   * opened it.
   */
  readonly authorize?:
    | ((request: IncomingMessage) => string | false | undefined | Promise<string | false | undefined>)
    | undefined;
  /** Browser origins allowed to call (exact `scheme://host:port`). Default none: any `Origin` header is refused. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** `Host` header values accepted (DNS rebinding). Default: `127.0.0.1`, `localhost` and `[::1]` at the bound port. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Open sessions at most; a new session beyond it is refused (503). Default 64. */
  readonly maxSessions?: number | undefined;
  /** Largest request body in bytes. Default 4 MiB. */
  readonly maxBodyBytes?: number | undefined;
}

/** A running Streamable HTTP endpoint. */
export interface McpHttpHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:43121/mcp`. */
  readonly url: URL;
  readonly port: number;
  /** How many sessions are open. */
  sessions(): number;
  /** Stops accepting, closes every session. */
  close(): Promise<void>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly principal: string;
}

/**
 * Serves `server` over Streamable HTTP (stateful sessions). Every request passes, in order: the
 * `Host` check and the `Origin` check (DNS rebinding), then the bearer token and/or `authorize`,
 * then the session lookup (a session answers only the principal that opened it). @internal
 */
export async function serveHttp(server: McpToolServer, options: McpHttpOptions): Promise<McpHttpHandle> {
  const token = options.token;
  if (token === undefined && options.authorize === undefined)
    throw new McpServerOptionsError({
      option: 'http',
      reason: 'give a `token` or an `authorize` function: an HTTP MCP server is never open',
    });
  if (token !== undefined && (typeof token !== 'string' || token.length < 16))
    throw new McpServerOptionsError({ option: 'http.token', reason: 'must be a string of at least 16 characters' });
  const path = options.path ?? '/mcp';
  const maxSessions = options.maxSessions ?? 64;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const origins = new Set(options.allowedOrigins ?? []);
  const expected = token === undefined ? undefined : digest(token);
  const sessions = new Map<string, HttpSession>();
  /** Initialize requests being handled (not yet sessions). */
  let opening = 0;
  let hosts: Set<string> = new Set(options.allowedHosts ?? []);

  const principalOf = async (request: IncomingMessage): Promise<string | undefined> => {
    let principal: string | undefined;
    if (expected !== undefined) {
      const header = request.headers.authorization ?? '';
      const match = /^Bearer (.+)$/i.exec(header);
      if (match === null || !timingSafeEqual(digest(match[1] as string), expected)) return undefined;
      principal = 'bearer';
    }
    if (options.authorize !== undefined) {
      const decided = await options.authorize(request);
      if (typeof decided !== 'string' || decided === '') return undefined;
      principal = decided;
    }
    return principal;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!hosts.has(request.headers.host ?? '')) return refuse(response, 403, 'host not allowed');
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return refuse(response, 403, 'origin not allowed');
    const principal = await principalOf(request);
    if (principal === undefined)
      return refuse(response, 401, 'unauthorized', { 'www-authenticate': 'Bearer realm="mcp"' });
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return refuse(response, 404, 'not found');
    let body: unknown;
    if (request.method === 'POST') {
      try {
        body = await readBody(request, maxBody);
      } catch {
        return refuse(response, 400, 'request body is not JSON or too large');
      }
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined || session.principal !== principal) return refuse(response, 404, 'unknown session');
      return session.transport.handleRequest(request, response, body);
    }
    if (request.method !== 'POST' || !isInitializeRequest(body))
      return refuse(response, 400, 'no session: send an initialize request first');
    // Sessions being opened count too, so concurrent initialize requests cannot pass the limit together.
    if (sessions.size + opening >= maxSessions) return refuse(response, 503, 'too many sessions');
    opening += 1;
    // The session (and its SDK server, run context and place in the tool server) exists only once the
    // transport has accepted the initialize request: a request it refuses (a wrong `Accept`, a bad
    // protocol version) leaves nothing behind.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: async (id) => {
        sessions.set(id, { transport, principal });
        try {
          await server.connect(transport, { sessionId: id, principal });
        } catch (error) {
          sessions.delete(id);
          throw error;
        }
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    let opened = false;
    try {
      await transport.handleRequest(request, response, body);
      opened = transport.sessionId !== undefined && sessions.get(transport.sessionId)?.transport === transport;
    } finally {
      opening -= 1;
      if (!opened) await transport.close().catch(() => undefined);
    }
  };

  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, 'internal error');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  if (options.allowedHosts === undefined) hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const host = options.host ?? '127.0.0.1';
  return {
    url: new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`),
    port,
    sessions: () => sessions.size,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.transport.close().catch(() => undefined)));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
