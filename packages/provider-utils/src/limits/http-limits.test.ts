import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFailure } from '../errors/http-failure.js';
import { readBodyText } from '../http/read-body-text.js';
import { readSseEvents } from '../sse/read-sse-events.js';
import { checkHttpLimits, DEFAULT_HTTP_LIMITS } from './http-limits.js';

/** Hostile bodies, by path; every open response is ended when the server stops. */
const open = new Set<ServerResponse>();
const server = createServer((request, response) => {
  open.add(response);
  response.on('close', () => open.delete(response));
  const sse = () => response.writeHead(200, { 'content-type': 'text/event-stream' });
  switch (request.url) {
    case '/giant-line': {
      sse();
      response.write('data: {"a":"');
      const block = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (response.write(block)) if (response.destroyed) return;
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
      return;
    }
    case '/keep-alive-flood': {
      sse();
      response.write('data: {"first":true}\n\n');
      const timer = setInterval(() => response.write(': keep-alive\n\n'), 5);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case '/ping-flood': {
      sse();
      const timer = setInterval(() => response.write('event: ping\ndata: {"type":"ping"}\n\n'), 5);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case '/trickle': {
      sse();
      const timer = setInterval(() => response.write('data: {"tick":1}\n\n'), 5);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case '/stall-body':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
      return;
    case '/huge-declared':
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 31) });
      response.write('{');
      return;
    case '/huge-body': {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"a":"');
      const block = 'y'.repeat(64 * 1024);
      const pump = () => {
        while (response.write(block)) if (response.destroyed) return;
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
      return;
    }
    default:
      response.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {"ok":1}\n\n');
  }
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of open) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function drain(
  path: string,
  options: Parameters<typeof readSseEvents>[1],
): Promise<{ error: unknown; count: number }> {
  const response = await fetch(`${base}${path}`);
  let count = 0;
  try {
    for await (const _event of readSseEvents(response.body as ReadableStream<Uint8Array>, options)) count += 1;
  } catch (error) {
    return { error, count };
  }
  return { error: undefined, count };
}

describe('readSseEvents bounds', () => {
  it('cuts an endless line at maxEventBytes, without holding it', async () => {
    const before = process.memoryUsage().rss;
    const { error } = await drain('/giant-line', { limits: { maxEventBytes: 256 * 1024 } });
    expect(HttpFailure.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'response_too_large', limit: 256 * 1024, retryable: false });
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('ends a stream of keep-alive comments at idleTimeoutMs: comments do not reset it', async () => {
    const { error, count } = await drain('/keep-alive-flood', { limits: { idleTimeoutMs: 150 } });
    expect(count).toBe(1);
    expect(error).toMatchObject({ kind: 'response_timeout', limit: 150, retryable: true });
    expect((error as Error).message).toContain('limits.idleTimeoutMs');
  });

  it('ends a stream of keep-alive events when the caller says what keeps alive', async () => {
    const { error, count } = await drain('/ping-flood', {
      limits: { idleTimeoutMs: 150 },
      isKeepAlive: (event) => event.event === 'ping',
    });
    expect(count).toBeGreaterThan(0);
    expect(error).toMatchObject({ kind: 'response_timeout', limit: 150 });
  });

  it('ends a stream of events that never finishes at totalTimeoutMs, and one past maxResponseBytes', async () => {
    const timed = await drain('/trickle', { limits: { totalTimeoutMs: 200 } });
    expect(timed.error).toMatchObject({ kind: 'response_timeout', limit: 200 });
    expect((timed.error as Error).message).toContain('limits.totalTimeoutMs');
    const sized = await drain('/trickle', { limits: { maxResponseBytes: 2000 } });
    expect(sized.error).toMatchObject({ kind: 'response_too_large', limit: 2000 });
  });

  it('reads a normal stream to its end', async () => {
    expect(await drain('/', { limits: { idleTimeoutMs: 1000 } })).toEqual({ error: undefined, count: 1 });
  });
});

describe('readBodyText bounds', () => {
  it('ends a body that stalls at idleTimeoutMs', async () => {
    const response = await fetch(`${base}/stall-body`);
    await expect(readBodyText(response, { idleTimeoutMs: 150 })).rejects.toMatchObject({ kind: 'response_timeout' });
  });

  it('refuses a body that announces or sends more than maxResponseBytes', async () => {
    await expect(readBodyText(await fetch(`${base}/huge-declared`))).rejects.toMatchObject({
      kind: 'response_too_large',
      limit: DEFAULT_HTTP_LIMITS.maxResponseBytes,
    });
    await expect(
      readBodyText(await fetch(`${base}/huge-body`), { maxResponseBytes: 512 * 1024 }),
    ).rejects.toMatchObject({ kind: 'response_too_large', limit: 512 * 1024 });
  });

  it('keeps the head of an endless error body with truncate', async () => {
    const text = await readBodyText(await fetch(`${base}/huge-body`), { maxResponseBytes: 1000 }, { truncate: true });
    expect(text).toHaveLength(1000);
    expect(text.startsWith('{"a":"yyy')).toBe(true);
  });
});

describe('checkHttpLimits', () => {
  it('names a bound that is not positive, and a key that is no bound', () => {
    expect(checkHttpLimits(undefined)).toBeUndefined();
    expect(checkHttpLimits({ idleTimeoutMs: Number.POSITIVE_INFINITY, maxEventBytes: 10 })).toBeUndefined();
    expect(checkHttpLimits({ idleTimeoutMs: -1 })).toContain('limits.idleTimeoutMs must be a positive number');
    expect(checkHttpLimits({ idleTimeout: 5 })).toContain('limits.idleTimeout is not a bound');
    expect(checkHttpLimits(5)).toContain('limits must be an object');
  });
});
