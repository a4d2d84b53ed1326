import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LanguageModelV1StreamPart, ModelCallError } from '@tiny/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';

// Answers a breaker found (issue 34, WIRE-3 fix), over a real 127.0.0.1 server: 200 bodies that are
// no message (an OpenAI-shaped error envelope a relay sends, `{}`), a whole message with two
// tool_use blocks under one id, and an OpenAI-shaped error event in a Messages stream.

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

const model = () => createAnthropic({ baseURL, apiKey: 'sk-ant-answers-0000' })('claude-x');
const request = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function generated(body: unknown, status = 200) {
  answer = { status, type: 'application/json', body: JSON.stringify(body) };
  try {
    return { response: await model().doGenerate(request) };
  } catch (error) {
    return { error };
  }
}

describe('Anthropic answers that are no message', () => {
  it('a 200 OpenAI-shaped error envelope is that error, by its inner type', async () => {
    const { error } = await generated({ error: { type: 'rate_limit_error', message: 'slow down' } });
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'rate_limit', isRetryable: true, providerMessage: 'slow down' });
  });

  it('a 200 {} is an invalid response, not an empty final answer', async () => {
    const { error } = await generated({});
    expect(error).toMatchObject({ kind: 'invalid_chunk', providerKind: 'invalid_response' });
  });

  it('a 200 message with content: [] is still an empty answer', async () => {
    const { response } = await generated({
      id: 'm',
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: 'end_turn',
      usage: {},
    });
    expect(response).toMatchObject({ content: '', finishReason: 'stop' });
  });

  it('two tool_use blocks under one id in a whole message: every call invalid', async () => {
    const { response } = await generated({
      id: 'm',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'x', name: 'bash', input: { cmd: 'ls' } },
        { type: 'tool_use', id: 'x', name: 'bash', input: { cmd: 'rm' } },
      ],
      stop_reason: 'tool_use',
      usage: {},
    });
    expect(response?.toolCalls).toHaveLength(2);
    for (const call of response?.toolCalls ?? []) expect(call.invalid).toMatch(/names two calls/);
  });

  it('an OpenAI-shaped error event in a Messages stream keeps its inner type', async () => {
    answer = {
      status: 200,
      type: 'text/event-stream',
      body:
        `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm', usage: {} } })}\n\n` +
        `data: ${JSON.stringify({ error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
    };
    const parts: LanguageModelV1StreamPart[] = [];
    for await (const part of (await model().doStream(request)).stream) parts.push(part);
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
      kind: 'overloaded',
      providerKind: 'overloaded_error',
      isRetryable: true,
    });
  });
});
