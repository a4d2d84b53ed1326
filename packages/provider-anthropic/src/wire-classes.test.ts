import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';

// WIRE-3 classes over a real 127.0.0.1 server. Sources are cited per case; bodies are shaped as the
// cited server or document says, with illustrative ids and figures.

let answer: { status: number; type: string; body: string } = { status: 200, type: 'text/event-stream', body: '' };
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

const sse = (...events: Record<string, unknown>[]) =>
  events.map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const start = {
  type: 'message_start',
  message: { id: 'msg_w', model: 'm', usage: { input_tokens: 9, output_tokens: 1 } },
};
const stop = (reason: string | null, output = 7) => [
  { type: 'message_delta', delta: { stop_reason: reason }, usage: { output_tokens: output } },
  { type: 'message_stop' },
];
const model = () => createAnthropic({ baseURL, apiKey: 'sk-ant-wire-0000' })('claude-x');
const request = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function streamed(body: string): Promise<LanguageModelV1StreamPart[]> {
  answer = { status: 200, type: 'text/event-stream', body };
  const out: LanguageModelV1StreamPart[] = [];
  for await (const part of (await model().doStream(request)).stream) out.push(part);
  return out;
}

async function failed(status: number, json: unknown): Promise<unknown> {
  answer = { status, type: 'application/json', body: JSON.stringify(json) };
  try {
    await model().doGenerate(request);
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('Anthropic wire classes (WIRE-3)', () => {
  it("llama.cpp's in-stream error event with its own {code, message, type} is that server error (llama.cpp tools/server error format)", async () => {
    const parts = await streamed(
      `${sse(start)}event: error\ndata: {"code":500,"message":"Context size has been exceeded.","type":"server_error"}\n\n`,
    );
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
      kind: 'context_overflow',
      isRetryable: false,
      providerMessage: 'Context size has been exceeded.',
    });
  });

  it("vLLM's internal_error type mid-stream is a retryable server error (vLLM ErrorResponse types)", async () => {
    const parts = await streamed(
      `${sse(start)}event: error\ndata: {"type":"error","error":{"type":"internal_error","message":"engine loop has died"}}\n\n`,
    );
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
      kind: 'server_error',
      providerKind: 'internal_error',
      isRetryable: true,
    });
  });

  it('a relay wrapping the upstream error, and a Vertex-style JSON-text error, surface the inner type and message', async () => {
    expect(
      await failed(502, {
        error: {
          type: 'upstream_error',
          message: 'bad gateway',
          upstream_error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
      }),
    ).toMatchObject({
      kind: 'overloaded',
      errorType: 'overloaded_error',
      providerMessage: 'Overloaded',
      isRetryable: true,
    });
    expect(
      await failed(400, {
        error: {
          code: 400,
          message:
            '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 201000 tokens > 200000 maximum"}}',
          status: 'INVALID_ARGUMENT',
        },
      }),
    ).toMatchObject({ kind: 'context_overflow', errorType: 'invalid_request_error', isRetryable: false });
  });

  it("llama.cpp's 400 exceed_context_size_error and 500 'Context size has been exceeded' are context overflow (llama.cpp tools/server)", async () => {
    expect(
      await failed(400, {
        error: {
          code: 400,
          message: 'request (4476 tokens) exceeds the available context size (4096 tokens)',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 4476,
          n_ctx: 4096,
        },
      }),
    ).toMatchObject({ kind: 'context_overflow', providerKind: 'exceed_context_size_error', isRetryable: false });
    expect(
      await failed(500, { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } }),
    ).toMatchObject({
      kind: 'context_overflow',
      isRetryable: false,
    });
  });

  it('message_stop after a complete message with stop_reason null keeps the usage (Anthropic streaming guide: message_stop ends the message)', async () => {
    const parts = await streamed(
      sse(
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } },
        { type: 'content_block_stop', index: 0 },
        ...stop(null, 11),
      ),
    );
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'other',
      usage: { inputTokens: 9, outputTokens: 11 },
    });
  });

  it('empty thinking blocks add no separator-only reasoning (extended thinking with display omitted sends empty thinking)', async () => {
    const thinking = (index: number, text: string) => [
      { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } },
      ...(text === ''
        ? []
        : [{ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } }]),
      { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: `sig${index}` } },
      { type: 'content_block_stop', index },
    ];
    const parts = await streamed(
      sse(
        start,
        ...thinking(0, ''),
        ...thinking(1, ''),
        ...thinking(2, 'a'),
        ...thinking(3, ''),
        ...thinking(4, 'b'),
        ...stop('end_turn'),
      ),
    );
    const settled = await collectStreamSettled(
      (async function* () {
        yield* parts;
      })(),
    );
    expect(settled.response.reasoning).toBe('a\n\nb');
    const none = await streamed(sse(start, ...thinking(0, ''), ...thinking(1, ''), ...stop('end_turn')));
    expect(none.filter((part) => part.type === 'reasoning_delta' && part.delta !== '')).toEqual([]);
  });

  it('a compaction block keeps the summary streamed in compaction_delta (anthropic-sdk-typescript BetaMessageStream accumulates compaction_delta content and encrypted_content)', async () => {
    const parts = await streamed(
      sse(
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'compaction_delta', content: 'The user is planning ' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'compaction_delta', content: 'a trip.', encrypted_content: 'enc1' },
        },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'ok' } },
        { type: 'content_block_stop', index: 1 },
        ...stop('end_turn'),
      ),
    );
    const signature = parts.find((part) => part.type === 'reasoning_delta' && part.signature !== undefined);
    const encoded = signature?.type === 'reasoning_delta' ? (signature.signature ?? '') : '';
    expect(encoded).not.toBe('');
    const decoded = Buffer.from(encoded.replace(/^[^:]*:/, ''), 'base64').toString('utf8');
    expect(`${encoded}${decoded}`).toMatch(/The user is planning a trip\./);
  });

  it('a streamed request answered by a body that is not JSON fails with a typed invalid_chunk, never a raw SyntaxError', async () => {
    answer = { status: 200, type: 'application/json', body: '<html>gateway</html>' };
    const parts: LanguageModelV1StreamPart[] = [];
    for await (const part of (await model().doStream(request)).stream) parts.push(part);
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({ kind: 'invalid_chunk', isRetryable: true });
  });

  it('an event that is not JSON before the stop reason is a retryable invalid_chunk, as in the OpenAI-compatible adapter', async () => {
    const parts = await streamed(`${sse(start)}event: content_block_delta\ndata: {"type":"content_block_delta",\n\n`);
    const last = parts.at(-1);
    expect(last?.type === 'error' ? last.error : undefined).toMatchObject({ kind: 'invalid_chunk', isRetryable: true });
  });
});
