import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';
import { mergeHeaders, postJson } from './post-json.js';

describe('parseRetryAfter', () => {
  it('reads milliseconds, seconds and HTTP dates', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '15' }))).toBe(15_000);
    // RFC 9110 delay-seconds is digits only: a fraction is no Retry-After.
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }))).toBeUndefined();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), now)).toBe(10_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2024 00:00:10 GMT' }), now)).toBe(0);
  });

  it('gives undefined for negative, blank and unparseable values', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-3' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '-1', 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '  ' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });
});

describe('mergeHeaders', () => {
  it('lets a later layer win whatever the spelling, and removes a header set to undefined', () => {
    const merged = mergeHeaders({ Authorization: 'Bearer a', 'X-Trace': '1', Accept: 'application/json' }, undefined, {
      authorization: 'Bearer b',
      'x-trace': undefined,
    });
    expect(merged).toEqual({ authorization: 'Bearer b', Accept: 'application/json' });
  });
});

describe('postJson', () => {
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      if (request.url === '/slow') setTimeout(() => response.end('{}'), 2_000);
      else response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"busy"}');
    });
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const noResponse = (message: string, cause: unknown) => new Error(`adapter: ${message}`, { cause });

  it('posts the body as JSON and returns a response whatever its status', async () => {
    const response = await postJson(
      { url: `${url}/v1`, headers: { 'content-type': 'application/json', 'x-key': 'k' }, body: { a: [1] }, fetch },
      noResponse,
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'busy' });
    expect(received.at(-1)).toMatchObject({ body: '{"a":[1]}', headers: { 'x-key': 'k' } });
  });

  it("builds the adapter's error when no response arrives, keeping the fetch error as cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await postJson(
      { url: `http://127.0.0.1:${port}/v1`, headers: {}, body: {}, fetch },
      noResponse,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`adapter: request to http://127.0.0.1:${port}/v1 failed`);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it("throws the signal's reason, not a transport error, when aborted before or during the call", async () => {
    const reason = new Error('stop');
    const early = new AbortController();
    early.abort(reason);
    let calls = 0;
    const counting: typeof fetch = (...args) => {
      calls += 1;
      return fetch(...args);
    };
    await expect(
      postJson({ url, headers: {}, body: {}, fetch: counting, signal: early.signal }, noResponse),
    ).rejects.toBe(reason);
    expect(calls).toBe(0);

    const late = new AbortController();
    const pending = postJson({ url: `${url}/slow`, headers: {}, body: {}, fetch, signal: late.signal }, noResponse);
    setTimeout(() => late.abort(reason), 100);
    await expect(pending).rejects.toBe(reason);
  });
});
