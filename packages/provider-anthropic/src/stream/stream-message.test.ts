import { collectStream, type LanguageModelV1StreamPart } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { AnthropicCallError } from '../errors/anthropic-call-error.js';
import { streamMessage } from './stream-message.js';

function body(chunks: readonly string[], fail?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (fail !== undefined) controller.error(fail);
      else controller.close();
    },
  });
}

const event = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const start = event({
  type: 'message_start',
  message: { id: 'msg_1', model: 'm', usage: { input_tokens: 10, output_tokens: 1 } },
});
const toolStart = (index: number, id: string) =>
  event({
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', id, name: 'get_weather', input: {} },
  });
const json = (index: number, partial: string) =>
  event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } });
const stop = (index: number) => event({ type: 'content_block_stop', index });
const end = (reason: string) =>
  event({ type: 'message_delta', delta: { stop_reason: reason }, usage: { output_tokens: 20 } }) +
  event({ type: 'message_stop' });

async function* replay(list: readonly LanguageModelV1StreamPart[]): AsyncGenerator<LanguageModelV1StreamPart> {
  yield* list;
}

async function parts(stream: ReadableStream<Uint8Array>): Promise<LanguageModelV1StreamPart[]> {
  const out: LanguageModelV1StreamPart[] = [];
  for await (const part of streamMessage(stream, { provider: 'anthropic' })) out.push(part);
  return out;
}

describe('streamMessage', () => {
  it('assembles interleaved input_json_delta pieces per block index, split at any byte, repairing relaxed JSON', async () => {
    const text =
      start +
      toolStart(0, 'a') +
      toolStart(1, 'b') +
      json(1, '{"city":') +
      json(0, '{city: "Pa') +
      json(1, ' "Oslo"}') +
      json(0, 'ris", unit: "c",}') +
      stop(0) +
      stop(1) +
      end('tool_use');
    for (const size of [1, 7, 64, text.length]) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
      const response = await collectStream(replay(await parts(body(chunks))));
      expect(response.toolCalls.map((call) => [call.id, call.arguments, call.invalid])).toEqual([
        ['a', { city: 'Paris', unit: 'c' }, undefined],
        ['b', { city: 'Oslo' }, undefined],
      ]);
      expect(response.usage).toEqual({ inputTokens: 10, outputTokens: 20, totalTokens: 30 });
    }
  });

  it('keeps the text received before a dropped connection and ends with a retryable error part', async () => {
    const text =
      start +
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } });
    const out = await parts(body([text], new Error('socket hang up')));
    expect(out.filter((part) => part.type === 'text_delta')).toEqual([{ type: 'text_delta', delta: 'partial' }]);
    const last = out[out.length - 1];
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(AnthropicCallError.isInstance(error) && error.kind === 'transport' && error.isRetryable).toBe(true);
  });

  it('reports an overloaded error event as retryable, after the output so far', async () => {
    const text = start + event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const out = await parts(body([text]));
    const last = out[out.length - 1];
    const error = last?.type === 'error' ? last.error : undefined;
    expect(AnthropicCallError.isInstance(error)).toBe(true);
    expect((error as AnthropicCallError).kind).toBe('overloaded');
    expect((error as AnthropicCallError).isRetryable).toBe(true);
  });

  it('joins several thinking blocks and sends their opaque blocks once, as the last signature', async () => {
    const thinking = (index: number, text: string, signature: string) =>
      event({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } }) +
      event({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } }) +
      event({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } }) +
      stop(index);
    const out = await parts(
      body([start + thinking(0, 'one', 'sig-1') + thinking(1, 'two', 'sig-2') + end('end_turn')]),
    );
    const signatures = out.flatMap((part) =>
      part.type === 'reasoning_delta' && part.signature !== undefined ? [part.signature] : [],
    );
    expect(signatures).toHaveLength(1);
    const blocks = JSON.parse(Buffer.from(String(signatures[0]).split(':')[1] ?? '', 'base64').toString('utf8'));
    expect(blocks).toEqual([
      { type: 'thinking', thinking: 'one', signature: 'sig-1' },
      { type: 'thinking', thinking: 'two', signature: 'sig-2' },
    ]);
    const response = await collectStream(replay(out));
    expect(response.reasoning).toBe('one\n\ntwo');
  });
});
