import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Secrets given through `headers` (issue 34, WIRE-3 fix): a server or relay that echoes the
// credential it rejected (a 401 body quoting the header) must not put it in any error text. Served
// over a real 127.0.0.1 server.

let echoed = '';
let server: Server;
let baseURL = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'authentication_error', message: `bad credential ${echoed}` } })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const SECRET = 'HDRSECRET-9f8e7d6c5b4a';

describe('header secrets never reach an error', () => {
  it.each([
    ['x-api-key', { 'x-api-key': SECRET }, SECRET],
    ['Authorization', { Authorization: `Token ${SECRET}` }, `Token ${SECRET}`],
    ['Cookie', { Cookie: `sid=${SECRET}; theme=dark` }, `sid=${SECRET}`],
    ['a custom header', { 'X-Custom-Auth': SECRET }, SECRET],
  ])('%s echoed by the server is redacted', async (_name, headers, echo) => {
    echoed = echo;
    let error: unknown;
    try {
      await createOpenAICompatible({ baseURL, apiKey: 'sk-other-key', headers })('m').doGenerate({
        messages: [{ role: 'user', content: 'x' }],
      });
    } catch (caught) {
      error = caught;
    }
    const record = error as { message: string; providerMessage?: string; responseBody?: string; kind?: string };
    expect(record.kind).toBe('auth');
    for (const text of [record.message, record.providerMessage, record.responseBody]) {
      expect(text ?? '').not.toContain('HDRSECRET');
    }
    expect(record.message).toContain('[redacted]');
  });

  it("a secret given in one request's headers is redacted too", async () => {
    echoed = `Bearer ${SECRET}`;
    let error: unknown;
    try {
      await createOpenAICompatible({ baseURL, apiKey: 'sk-other-key' })('m').doGenerate({
        messages: [{ role: 'user', content: 'x' }],
        headers: { Authorization: `Bearer ${SECRET}` },
      });
    } catch (caught) {
      error = caught;
    }
    const record = error as { message: string; providerMessage?: string; responseBody?: string };
    expect(`${record.message} ${record.providerMessage} ${record.responseBody}`).not.toContain('HDRSECRET');
  });

  it('a base URL with credentials is refused at creation, the credentials not shown', () => {
    expect(() =>
      createOpenAICompatible({ baseURL: 'http://user:URLSECRET-123@127.0.0.1:1/v1', apiKey: 'sk-x' }),
    ).toThrow(/must not carry credentials/);
    try {
      createOpenAICompatible({ baseURL: 'http://user:URLSECRET-123@127.0.0.1:1/v1', apiKey: 'sk-x' });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('URLSECRET');
    }
  });
});
