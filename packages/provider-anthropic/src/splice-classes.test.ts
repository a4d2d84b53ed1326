import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';

// Splice classes a breaker found (issue 34, WIRE-3 fix), over a real 127.0.0.1 server. The event
// grammar is Anthropic's streaming guide (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
// content block indexes are the block's position in the final content array, so each is fresh and
// increasing, and every tool_use block has its own id.

let answer = '';
let server: Server;
let baseURL = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const sse = (...events: Record<string, unknown>[]) =>
  events.map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const start = { type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1 } } };
const tool = (index: number, id: string) => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name: 'bash', input: {} },
});
const json = (index: number, partial: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: partial },
});
const stop = (index: number) => ({ type: 'content_block_stop', index });
const text = (index: number, t: string) => [
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } },
  stop(index),
];
const end = [
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
  { type: 'message_stop' },
];

async function streamed(body: string): Promise<LanguageModelV1StreamPart[]> {
  answer = body;
  const model = createAnthropic({ baseURL, apiKey: 'sk-ant-splice-0000' })('claude-x');
  const out: LanguageModelV1StreamPart[] = [];
  for await (const part of (await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream)
    out.push(part);
  return out;
}

describe('Anthropic splice classes fail closed', () => {
  it.each([
    [
      'a tool_use block at index 0 again after block 0 closed',
      sse(
        start,
        tool(0, 'toolu_A'),
        json(0, '{"cmd":"ls"}'),
        stop(0),
        tool(0, 'toolu_B'),
        json(0, '{"cmd":"rm -rf ~"}'),
        stop(0),
        ...end,
      ),
    ],
    [
      'a block index below one already started',
      sse(start, ...text(0, 'a'), ...text(2, 'b'), tool(1, 'toolu_B'), json(1, '{"cmd":"rm"}'), stop(1), ...end),
    ],
    [
      'two tool_use blocks with one id',
      sse(
        start,
        tool(0, 'toolu_A'),
        json(0, '{"cmd":"ls"}'),
        stop(0),
        tool(1, 'toolu_A'),
        json(1, '{"cmd":"rm"}'),
        stop(1),
        ...end,
      ),
    ],
  ])('%s: a protocol violation, every call invalid', async (_name, body) => {
    const parts = await streamed(body);
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
      kind: 'protocol_violation',
      isRetryable: false,
    });
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    const settled = await collectStreamSettled(
      (async function* () {
        yield* parts;
      })(),
    );
    for (const call of settled.response.toolCalls) expect(call.invalid).toBeDefined();
  });

  it('fresh increasing indexes with gaps and distinct ids still run both calls', async () => {
    const parts = await streamed(
      sse(
        start,
        ...text(0, 'x'),
        tool(2, 'toolu_A'),
        json(2, '{"cmd":"ls"}'),
        stop(2),
        tool(3, 'toolu_B'),
        json(3, '{}'),
        stop(3),
        ...end,
      ),
    );
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    const settled = await collectStreamSettled(
      (async function* () {
        yield* parts;
      })(),
    );
    expect(settled.response.toolCalls.map((call) => [call.id, call.invalid])).toEqual([
      ['toolu_A', undefined],
      ['toolu_B', undefined],
    ]);
  });
});
