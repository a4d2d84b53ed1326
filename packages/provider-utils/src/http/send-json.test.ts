import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sendJson } from './send-json.js';

const errors = {
  noResponse: (message: string) => new Error(`no response: ${message}`),
  refused: (failure: { kind: string }) => new Error(`refused: ${failure.kind}`),
};

describe('sendJson', () => {
  it('returns the response, and converts a refused redirect and a missing server with the adapter errors', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/away') response.writeHead(302, { location: 'http://example.invalid/x' }).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await sendJson({ url: `${base}/ok`, headers: {}, body: {}, fetch: globalThis.fetch }, errors);
      expect(ok.status).toBe(200);
      await expect(
        sendJson({ url: `${base}/away`, headers: {}, body: {}, fetch: globalThis.fetch }, errors),
      ).rejects.toThrow('refused: redirect');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await expect(
      sendJson({ url: 'http://127.0.0.1:9/none', headers: {}, body: {}, fetch: globalThis.fetch }, errors),
    ).rejects.toThrow(/^no response: /);
  });
});
