import { collectStream, collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
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

  it('keeps the text received before a dropped connection and ends with a retryable incomplete_stream error part', async () => {
    const text =
      start +
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } });
    const out = await parts(body([text], new Error('socket hang up')));
    expect(out.filter((part) => part.type === 'text_delta')).toEqual([{ type: 'text_delta', delta: 'partial' }]);
    const last = out[out.length - 1];
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(AnthropicCallError.isInstance(error) && error.kind === 'incomplete_stream' && error.isRetryable).toBe(true);
    expect((error as AnthropicCallError).message).toContain('socket hang up');
  });

  const textStart = event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  const textDelta = (text: string) =>
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

  it('a message_stop without a stop_reason after every block closed finishes (other), keeping the usage', async () => {
    // The class: llama.cpp-style servers that send message_delta with stop_reason null,
    // then message_stop, after a complete message (Anthropic's streaming guide: message_stop ends the message).
    const out = await parts(
      body([
        start +
          textStart +
          textDelta('whole') +
          stop(0) +
          event({ type: 'message_delta', delta: { stop_reason: null }, usage: { output_tokens: 5 } }) +
          event({ type: 'message_stop' }),
      ]),
    );
    expect(out.at(-1)).toMatchObject({ type: 'finish', finishReason: 'other', usage: { outputTokens: 5 } });
    const withCall = await parts(
      body([start + toolStart(0, 'a') + json(0, '{"city":"Paris"}') + stop(0) + event({ type: 'message_stop' })]),
    );
    expect(withCall.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });

  it('treats a body that ends, or a message_stop that comes while a block is open, before any stop_reason as an incomplete stream', async () => {
    for (const tail of ['', event({ type: 'message_stop' })]) {
      const out = await parts(body([start + textStart + textDelta('par') + textDelta('tial') + tail]));
      expect(out.some((part) => part.type === 'finish')).toBe(false);
      const last = out[out.length - 1];
      const error = last?.type === 'error' ? last.error : undefined;
      expect(AnthropicCallError.isInstance(error)).toBe(true);
      expect([(error as AnthropicCallError).kind, (error as AnthropicCallError).isRetryable]).toEqual([
        'incomplete_stream',
        true,
      ]);
      const settled = await collectStreamSettled(replay(out));
      expect(settled.error).toBe(error);
      expect(settled.response.content).toBe('partial');
    }
  });

  it('ends a call still open at an incomplete stream invalid, never runnable', async () => {
    const out = await parts(body([start + toolStart(0, 'a') + json(0, '{"city": "Paris"}') + stop(0)]));
    const ended = out.find((part) => part.type === 'tool_call_end');
    expect(ended?.type === 'tool_call_end' ? ended.call?.invalid : undefined).toMatch(/cut the call off/);
    expect(out[out.length - 1]?.type).toBe('error');
  });

  it('finishes normally, keeping the usage, when the stop_reason arrived and then the body ended', async () => {
    const delta = event({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } });
    const text = start + textStart + textDelta('pong') + stop(0) + delta;
    // A drop there (before message_stop) is an incomplete_stream error: see describeBrokenStreams.
    const dropped = await parts(body([text], new Error('socket hang up')));
    expect(dropped.some((part) => part.type === 'finish')).toBe(false);
    expect(dropped.at(-1)).toMatchObject({ type: 'error', error: { kind: 'incomplete_stream' } });
    for (const stream of [body([text])]) {
      const out = await parts(stream);
      expect(out.some((part) => part.type === 'error')).toBe(false);
      const last = out[out.length - 1];
      expect(last).toMatchObject({
        type: 'finish',
        finishReason: 'stop',
        rawFinishReason: 'end_turn',
        usage: { inputTokens: 10, outputTokens: 7, totalTokens: 17 },
      });
    }
  });

  it('sends a refusal stop as one refusal_delta (the stop_details explanation), keeping the text cut off before it', async () => {
    const refusal = (details?: Record<string, unknown>) =>
      event({
        type: 'message_delta',
        delta: {
          stop_reason: 'refusal',
          stop_sequence: null,
          ...(details === undefined ? {} : { stop_details: details }),
        },
        usage: { output_tokens: 3 },
      }) + event({ type: 'message_stop' });
    const explained = await parts(
      body([
        start +
          textStart +
          textDelta('Hello..') +
          stop(0) +
          refusal({ type: 'refusal', category: 'cyber', explanation: 'Declined: it could enable cyber harm.' }),
      ]),
    );
    expect(explained.filter((part) => part.type === 'refusal_delta')).toEqual([
      { type: 'refusal_delta', delta: 'Declined: it could enable cyber harm.' },
    ]);
    const response = await collectStream(replay(explained));
    expect([response.refusal, response.content, response.finishReason, response.rawFinishReason]).toEqual([
      'Declined: it could enable cyber harm.',
      'Hello..',
      'content_filter',
      'refusal',
    ]);

    for (const [details, expected] of [
      [
        { type: 'refusal', category: 'bio', explanation: null },
        /declined the request \(stop_reason "refusal", category "bio"\)/,
      ],
      [undefined, /declined the request \(stop_reason "refusal"\) without an explanation/],
    ] as const) {
      const out = await collectStream(replay(await parts(body([start + refusal(details)]))));
      expect(out.refusal).toMatch(expected);
      expect(out.content).toBe('');
      expect(out.finishReason).toBe('content_filter');
    }

    const plain = await collectStream(
      replay(await parts(body([start + textStart + textDelta('ok') + stop(0) + end('end_turn')]))),
    );
    expect(plain.refusal).toBeUndefined();
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

  it('reads a plain JSON error body sent under text/event-stream (a proxy answering a stream) as that error', async () => {
    const raw = JSON.stringify({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of requests exceeded' },
    });
    const out = await parts(body([raw.slice(0, 20), raw.slice(20)]));
    expect(out).toHaveLength(1);
    const error = out[0]?.type === 'error' ? out[0].error : undefined;
    expect(AnthropicCallError.isInstance(error)).toBe(true);
    expect((error as AnthropicCallError).kind).toBe('rate_limit');
    expect((error as AnthropicCallError).message).toContain('Number of requests exceeded');
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
