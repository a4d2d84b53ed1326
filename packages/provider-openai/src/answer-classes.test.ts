import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelCallError } from '@tiny/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';

// Answers a breaker found (issue 34, WIRE-3 fix), over a real 127.0.0.1 server: 200 bodies that are
// no completion (an error envelope, `{}`).

let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '' };
let server: Server;
let baseURL = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const model = () => createOpenAICompatible({ baseURL, apiKey: 'sk-answers-0000' })('m');
const request = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function generated(body: unknown, status = 200) {
  answer = { status, type: 'application/json', body: JSON.stringify(body) };
  try {
    return { response: await model().doGenerate(request) };
  } catch (error) {
    return { error };
  }
}

describe('OpenAI-compatible answers that are no completion', () => {
  it('a 200 OpenAI-shaped error envelope is that error, by its inner type', async () => {
    const { error } = await generated({ error: { type: 'rate_limit_error', message: 'slow down' } });
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'rate_limit', isRetryable: true, providerMessage: 'slow down' });
  });

  it('a 200 {} is an invalid response, not an empty final answer', async () => {
    const { error } = await generated({});
    expect(error).toMatchObject({ kind: 'invalid_chunk', providerKind: 'invalid_response' });
  });
});
