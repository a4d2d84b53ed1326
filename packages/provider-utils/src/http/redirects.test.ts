import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFailure } from '../errors/http-failure.js';
import { postJson } from './post-json.js';

interface Seen {
  readonly url: string | undefined;
  readonly method: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

function listen(handler: (request: IncomingMessage, response: ServerResponse, body: string) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      seen.push({ url: request.url, method: request.method, headers: request.headers, body });
      handler(request, response, body);
    });
  });
  return { server, seen };
}

const start = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const stop = (server: Server) => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
};

const noResponse = (message: string, cause: unknown) => new Error(`adapter: ${message}`, { cause });

describe('postJson redirects', () => {
  const other = listen((_request, response) => response.writeHead(200).end('{"answer":"from elsewhere"}'));
  const api = listen((request, response) => {
    const [, status, where] = /^\/(\d{3})\/(.*)$/.exec(request.url ?? '') ?? [];
    if (status !== undefined && where !== undefined) {
      const location = where.startsWith('other') ? `${otherUrl}/v1` : decodeURIComponent(where);
      response.writeHead(Number(status), { location }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"answer":"model"}');
  });
  let apiUrl = '';
  let otherUrl = '';
  beforeAll(async () => {
    apiUrl = await start(api.server);
    otherUrl = await start(other.server);
  });
  afterAll(async () => {
    await stop(api.server);
    await stop(other.server);
  });

  const post = (path: string, fetcher: typeof fetch = fetch) =>
    postJson(
      {
        url: `${apiUrl}${path}`,
        headers: { 'x-api-key': 'secret-key' },
        body: { prompt: 'secret prompt' },
        fetch: fetcher,
      },
      noResponse,
    );

  it.each([301, 302, 303, 307, 308])('refuses a %i to another origin and sends it nothing', async (status) => {
    const error = await post(`/${status}/other`).catch((caught: unknown) => caught);
    expect(HttpFailure.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'redirect', statusCode: status, location: `${otherUrl}/v1`, retryable: false });
    expect((error as Error).message).toContain(`${status} to ${otherUrl}/v1`);
    expect(other.seen).toHaveLength(0);
  });

  it('follows a same-origin 307 and 308 with the same method, headers and body, relative Locations included', async () => {
    api.seen.length = 0;
    const response = await post(`/307/${encodeURIComponent('/308/%2Fv1%2Fdone')}`);
    expect(await response.json()).toEqual({ answer: 'model' });
    expect(
      api.seen.map((request) => [request.url, request.method, request.headers['x-api-key'], request.body]),
    ).toEqual([
      ['/307/%2F308%2F%252Fv1%252Fdone', 'POST', 'secret-key', '{"prompt":"secret prompt"}'],
      ['/308/%2Fv1%2Fdone', 'POST', 'secret-key', '{"prompt":"secret prompt"}'],
      ['/v1/done', 'POST', 'secret-key', '{"prompt":"secret prompt"}'],
    ]);
  });

  it('refuses a same-origin 301, 302 and 303, which would turn the POST into a GET', async () => {
    for (const status of [301, 302, 303]) {
      await expect(post(`/${status}/${encodeURIComponent('/v1/done')}`)).rejects.toMatchObject({
        kind: 'redirect',
        statusCode: status,
      });
    }
  });

  it('refuses a redirect loop after 5 same-origin hops, and one without a usable Location', async () => {
    await expect(post(`/307/${encodeURIComponent('/307/x')}`)).rejects.toMatchObject({ kind: 'redirect' });
    await expect(post(`/307/${encodeURIComponent('javascript:alert(1)')}`)).rejects.toMatchObject({ kind: 'redirect' });
  });

  it('refuses the answer of a custom fetch that follows a cross-origin redirect on its own', async () => {
    const following: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'follow' });
    const error = await post('/307/other', following).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'redirect', location: `${otherUrl}/v1` });
  });

  it("refuses a browser's opaque redirect", async () => {
    const opaque: typeof fetch = async () =>
      Object.defineProperty(new Response(null, { status: 200 }), 'type', { value: 'opaqueredirect' });
    await expect(post('/v1', opaque)).rejects.toMatchObject({
      kind: 'redirect',
      message: expect.stringContaining('opaque'),
    });
  });
});
