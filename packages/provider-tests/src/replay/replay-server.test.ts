import { describe, expect, it } from 'vitest';
import { startReplayServer } from './replay-server.js';

describe('startReplayServer', () => {
  it('answers in order, records requests and checks expectations', async () => {
    const server = await startReplayServer({
      exchanges: [
        {
          request: { path: '/v1/x', headers: { authorization: 'Bearer k' }, body: { a: 1 } },
          response: { json: { ok: 1 } },
        },
        { response: { status: 503, text: 'busy', headers: { 'retry-after': '1' } } },
      ],
    });
    try {
      const first = await fetch(`${server.url}/v1/x`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ a: 1, b: 2 }),
      });
      expect(await first.json()).toEqual({ ok: 1 });
      const second = await fetch(`${server.url}/v1/x`, { method: 'POST', body: '{}' });
      expect(second.status).toBe(503);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(server.requests.map((request) => request.body)).toEqual([{ a: 1, b: 2 }, {}]);
      server.assertDone();
    } finally {
      await server.close();
    }
  });

  it('answers a mismatch with 418 and reports it, and reports unused exchanges', async () => {
    const server = await startReplayServer({
      exchanges: [{ request: { body: { a: 1 } }, response: { json: {} } }, { response: { json: {} } }],
    });
    try {
      const response = await fetch(server.url, { method: 'POST', body: JSON.stringify({ a: 2 }) });
      expect(response.status).toBe(418);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        '$.a: expected 1, got 2',
      );
      expect(() => server.assertDone()).toThrow(
        /request 1: body \$\.a: expected 1, got 2[\s\S]*1 recorded exchange\(s\) were never requested/,
      );
    } finally {
      await server.close();
    }
  });

  it('writes a body in byte-sized chunks with delays', async () => {
    const server = await startReplayServer({
      exchanges: [{ response: { text: 'data: é\n\n', chunking: { bytes: 3 }, delayMs: 5 } }],
    });
    try {
      const response = await fetch(server.url, { method: 'POST' });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const sizes: number[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        sizes.push(value.length);
      }
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(Buffer.byteLength('data: é\n\n'));
      expect(sizes.length).toBeGreaterThan(1);
    } finally {
      await server.close();
    }
  });
});
