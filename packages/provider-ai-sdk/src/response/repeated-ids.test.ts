import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAiSdk } from '../from-ai-sdk.js';

// Found by the refused-call tester: `doGenerate` with two tool-call parts under one toolCallId ran
// both, while the stream path refused them. The real @ai-sdk/anthropic reads a whole Messages
// response (shape: https://docs.anthropic.com/en/api/messages) from a 127.0.0.1 server; the
// repeated id is scripted, as a relay that merged two responses would send it.

let server: Server;
let url = '';
let body = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request = {
  messages: [{ role: 'user' as const, content: 'hi' }],
  tools: [{ name: 'bash', description: 'x', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }],
};

function message(ids: string[]) {
  return JSON.stringify({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: ids.map((id, index) => ({ type: 'tool_use', id, name: 'bash', input: { cmd: `c${index}` } })),
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });
}

describe('doGenerate: two tool calls under one id', () => {
  it('refuses every call of the response, keeping each one raw argument text', async () => {
    body = message(['toolu_1', 'toolu_1', 'toolu_2']);
    const model = fromAiSdk(createAnthropic({ baseURL: url, apiKey: 'sk-ant-bridge-0000' })('claude-x'));
    const response = await model.doGenerate(request);
    expect(response.toolCalls).toHaveLength(3);
    for (const call of response.toolCalls) {
      expect(call.refused).toBe(true);
      expect(call.invalid).toMatch(/toolu_1/);
    }
    expect(response.toolCalls.map((call) => call.rawArguments)).toEqual([
      '{"cmd":"c0"}',
      '{"cmd":"c1"}',
      '{"cmd":"c2"}',
    ]);
  });

  it('distinct ids stay runnable', async () => {
    body = message(['toolu_1', 'toolu_2']);
    const model = fromAiSdk(createAnthropic({ baseURL: url, apiKey: 'sk-ant-bridge-0000' })('claude-x'));
    const response = await model.doGenerate(request);
    expect(response.toolCalls.map((call) => [call.id, call.refused, call.arguments])).toEqual([
      ['toolu_1', undefined, { cmd: 'c0' }],
      ['toolu_2', undefined, { cmd: 'c1' }],
    ]);
  });
});
