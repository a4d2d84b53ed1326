import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';

/** Answers one chat POST (the body `useChat` sends) with a UI message stream response. */
export type ChatHandler = (request: Request) => Promise<Response>;

/** Options for {@link startChatServer}. */
export interface ChatServerOptions {
  /** Answers `POST /api/chat`. */
  readonly chat: ChatHandler;
  /** The folder holding the page bundle (`app.js`, `app.css`), as written by `buildPage`. */
  readonly publicDir: string;
  /** A line under the page title saying which model answers. */
  readonly modelDescription: string;
  /** Default `127.0.0.1`: the demo is for this machine only. */
  readonly host?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  /** Largest chat request body accepted, in bytes (default 1 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
}

/** A running server. */
export interface ChatServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const assets: Readonly<Record<string, string>> = {
  '/app.js': 'text/javascript; charset=utf-8',
  '/app.css': 'text/css; charset=utf-8',
};

// The page loads only its own bundle and talks only to this server.
const contentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The page shell: the bundle renders into `#root`. */
export function pageHtml(modelDescription: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tiny web chat</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css">
</head>
<body>
<div id="root" data-model="${escapeHtml(modelDescription)}"></div>
<script type="module" src="/app.js"></script>
</body>
</html>
`;
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}

/** The request body, or `undefined` once it passes `max` bytes (reading stops there). */
async function readCapped(request: Request, max: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length') ?? '0') > max) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  while (reader !== undefined) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Serves the chat page and its bundle, and answers `POST /api/chat` with `options.chat`. Nothing
 * else is served: no directory listing, no other file of `publicDir`.
 */
export function createChatFetchHandler(options: ChatServerOptions): (request: Request) => Promise<Response> {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const html = pageHtml(options.modelDescription);
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/chat') {
      if (request.method !== 'POST') return text(405, 'POST only', { allow: 'POST' });
      const body = await readCapped(request, maxBodyBytes);
      if (body === undefined) return text(413, `the request body is over ${maxBodyBytes} bytes`);
      return options.chat(
        new Request(request.url, { method: 'POST', headers: request.headers, body, signal: request.signal }),
      );
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'GET only', { allow: 'GET, HEAD' });
    if (pathname === '/' || pathname === '/index.html') {
      return new Response(html, {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': contentSecurityPolicy },
      });
    }
    const type = assets[pathname];
    if (type === undefined) return text(404, 'not found');
    try {
      const body = await readFile(join(options.publicDir, pathname.slice(1)));
      return new Response(body, { headers: { 'content-type': type, 'cache-control': 'no-cache' } });
    } catch {
      return text(500, `${pathname} is missing: build the page first (pnpm --filter web-chat build)`);
    }
  };
}

/** Starts the server on `host:port` (127.0.0.1, any free port by default). */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const listener = getRequestListener(createChatFetchHandler(options), { overrideGlobalObjects: false });
  const server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
