import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAnthropic } from '@ai-sdk/anthropic';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAiSdk } from './from-ai-sdk.js';

// Call integrity through the bridge (issue 34, WIRE-3 fix): the real @ai-sdk/anthropic over a
// real 127.0.0.1 server. Event grammar: Anthropic's streaming guide
// (https://docs.anthropic.com/en/docs/build-with-claude/streaming); the cut-off and the repeated
// id are scripted, as a relay would send them.

let answer = '';
let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer));
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

async function run(body: string) {
  answer = body;
  const model = createAnthropic({ baseURL: url, apiKey: 'sk-ant-bridge-0000' })('claude-x');
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of (await fromAiSdk(model).doStream(request)).stream) parts.push(part);
  const settled = await collectStreamSettled(
    (async function* () {
      yield* parts;
    })(),
  );
  return { parts, settled };
}

const event = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;

describe('fromAiSdk call integrity', () => {
  it('a call whose block never closed before the finish is cut off: invalid, never runnable (@ai-sdk/anthropic)', async () => {
    const { parts, settled } = await run(
      event({
        type: 'message_start',
        message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1, output_tokens: 1 } },
      }) +
        event({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'toolu_A', name: 'bash', input: {} },
        }) +
        event({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"cmd":"rm -rf ~"}' },
        }) +
        event({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } }) +
        event({ type: 'message_stop' }),
    );
    const ends = parts.filter((part) => part.type === 'tool_call_end');
    expect(ends).toHaveLength(1);
    expect(settled.response.toolCalls).toHaveLength(1);
    expect(settled.response.toolCalls[0]).toMatchObject({ id: 'toolu_A', arguments: '{"cmd":"rm -rf ~"}' });
    expect(settled.response.toolCalls[0]?.invalid).toMatch(/cut off|before this tool call completed/);
  });

  it('two tool-call parts sharing a toolCallId: a protocol violation, every call invalid (@ai-sdk/anthropic)', async () => {
    const tool = (index: number, args: string) =>
      event({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: 'toolu_A', name: 'bash', input: {} },
      }) +
      event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } }) +
      event({ type: 'content_block_stop', index });
    const { parts, settled } = await run(
      event({
        type: 'message_start',
        message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1, output_tokens: 1 } },
      }) +
        tool(0, '{"cmd":"ls"}') +
        tool(1, '{"cmd":"rm -rf ~"}') +
        event({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } }) +
        event({ type: 'message_stop' }),
    );
    const calls = settled.response.toolCalls;
    expect(calls.length).toBeGreaterThan(0);
    for (const toolCall of calls) expect(toolCall.invalid).toBeDefined();
    expect(settled.response.finishReason).toBe('error');
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
      kind: 'protocol_violation',
      isRetryable: false,
    });
  });
});
