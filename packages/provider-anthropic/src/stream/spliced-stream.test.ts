import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { AnthropicCallError } from '../errors/anthropic-call-error.js';
import { streamMessage } from './stream-message.js';

// Spliced streams: two Messages streams interleaved into one body (a relay that multiplexes
// upstream connections, a retry spliced onto a half-read stream). The event grammar (one
// message_start, then content_block_start/delta/stop per index, message_delta, message_stop)
// is the one of Anthropic's streaming guide (https://docs.anthropic.com/en/docs/build-with-claude/streaming).

function body(text: string): ReadableStream<Uint8Array> {
  return new Response(text).body as ReadableStream<Uint8Array>;
}
const event = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const start = (id: string) => event({ type: 'message_start', message: { id, model: 'm', usage: { input_tokens: 3 } } });
const toolStart = (index: number, id: string) =>
  event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: 'rm', input: {} } });
const json = (index: number, partial: string) =>
  event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } });
const stop = (index: number) => event({ type: 'content_block_stop', index });
const end = (reason: string) =>
  event({ type: 'message_delta', delta: { stop_reason: reason }, usage: { output_tokens: 9 } }) +
  event({ type: 'message_stop' });

async function parts(text: string): Promise<LanguageModelV1StreamPart[]> {
  const out: LanguageModelV1StreamPart[] = [];
  for await (const part of streamMessage(body(text), { provider: 'anthropic' })) out.push(part);
  return out;
}

const second = toolStart(0, 'toolu_B') + json(0, '{"path":"/"}') + stop(0) + end('tool_use');

describe('a spliced stream fails closed', () => {
  it.each([
    [
      'a second message_start while the first tool input is half-streamed',
      start('msg_A') + toolStart(0, 'toolu_A') + json(0, '{"pa') + start('msg_B') + second,
    ],
    [
      'a second message_start after a complete call',
      start('msg_A') + toolStart(0, 'toolu_A') + json(0, '{"path":"a"}') + stop(0) + start('msg_B') + second,
    ],
    [
      'a block index started again while open (no second message_start)',
      start('msg_A') + toolStart(0, 'toolu_A') + json(0, '{"pa') + second,
    ],
    [
      'a message_start after content blocks (the first message had none)',
      toolStart(0, 'toolu_A') + json(0, '{"pa') + start('msg_B') + second,
    ],
  ])('%s: every call invalid, a non-retryable protocol error', async (_name, text) => {
    const list = await parts(text);
    const last = list[list.length - 1];
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(AnthropicCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'protocol_violation', providerKind: 'protocol_violation', isRetryable: false });
    expect(list.some((part) => part.type === 'finish')).toBe(false);
    const ends = list.flatMap((part) => (part.type === 'tool_call_end' && part.call !== undefined ? [part.call] : []));
    for (const call of ends) expect(call.invalid).toMatch(/broke the Messages protocol/);
    const settled = await collectStreamSettled(
      (async function* () {
        yield* list;
      })(),
    );
    expect(settled.response.toolCalls.every((call) => call.invalid !== undefined)).toBe(true);
  });

  it('a clean stream with one message_start still runs its call', async () => {
    const list = await parts(start('msg_B') + second);
    expect(list.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    const call = list.find((part) => part.type === 'tool_call_end');
    expect(call).toMatchObject({ call: { arguments: { path: '/' } } });
    expect(call?.type === 'tool_call_end' ? call.call?.invalid : 'x').toBeUndefined();
  });
});
