import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectStreamSettled, type LanguageModelV1, ModelCallError } from '@tiny/llm';
import { createAnthropic } from '@tiny/provider-anthropic';
import { createOpenAICompatible } from '@tiny/provider-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// WIRE-3 held-out set: 20 exchanges written from public documentation after the adapters were
// changed, never tuned on (the figure is reported, not chased). Each names its source. Replayed
// over a real 127.0.0.1 server through both adapters' public factories.

interface Exchange {
  readonly source: string;
  readonly api: 'anthropic' | 'openai';
  readonly mode: 'generate' | 'stream';
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: string;
  readonly expect: Record<string, unknown>;
}

const json = (value: unknown) => JSON.stringify(value);
const anthropicSse = (...events: Record<string, unknown>[]) =>
  events.map((event) => `event: ${String(event.type)}\ndata: ${json(event)}\n\n`).join('');
const chunk = (fields: Record<string, unknown>) =>
  `data: ${json({ id: 'chatcmpl-h', object: 'chat.completion.chunk', model: 'm', ...fields })}\n\n`;
const start = {
  type: 'message_start',
  message: { id: 'msg_h', model: 'claude-x', usage: { input_tokens: 10, output_tokens: 1 } },
};

const exchanges: readonly Exchange[] = [
  {
    source: 'Anthropic docs, Errors (529 overloaded_error)',
    api: 'anthropic',
    mode: 'generate',
    status: 529,
    body: json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    expect: { kind: 'overloaded', isRetryable: true },
  },
  {
    source: 'Anthropic docs, Rate limits (429 with retry-after)',
    api: 'anthropic',
    mode: 'generate',
    status: 429,
    headers: { 'retry-after': '30' },
    body: json({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    }),
    expect: { kind: 'rate_limit', isRetryable: true, retryAfterMs: 30000 },
  },
  {
    source: 'Anthropic docs, Errors (413 request_too_large)',
    api: 'anthropic',
    mode: 'generate',
    status: 413,
    body: json({
      type: 'error',
      error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
    }),
    expect: { kind: 'invalid_request', isRetryable: false },
  },
  {
    source: 'Anthropic docs, Errors (401 authentication_error)',
    api: 'anthropic',
    mode: 'generate',
    status: 401,
    body: json({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }),
    expect: { kind: 'auth', isRetryable: false },
  },
  {
    source: 'Anthropic docs, Errors (403 permission_error)',
    api: 'anthropic',
    mode: 'generate',
    status: 403,
    body: json({
      type: 'error',
      error: {
        type: 'permission_error',
        message: 'Your API key does not have permission to use the specified resource.',
      },
    }),
    expect: { kind: 'permission', isRetryable: false },
  },
  {
    source: 'Ollama docs, Anthropic compatibility (unknown model answered 404 not_found_error)',
    api: 'anthropic',
    mode: 'generate',
    status: 404,
    body: json({ type: 'error', error: { type: 'not_found_error', message: "model 'llama9' not found" } }),
    expect: { kind: 'not_found', isRetryable: false },
  },
  {
    source: 'Anthropic docs, Streaming messages (error event: overloaded_error mid-stream)',
    api: 'anthropic',
    mode: 'stream',
    status: 200,
    body: `${anthropicSse(start)}event: error\ndata: ${json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
    expect: { kind: 'overloaded', isRetryable: true },
  },
  {
    source: 'Anthropic docs, Prompt too long (400 invalid_request_error "prompt is too long")',
    api: 'anthropic',
    mode: 'generate',
    status: 400,
    body: json({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 204912 tokens > 200000 maximum' },
    }),
    expect: { kind: 'context_overflow', isRetryable: false },
  },
  {
    source: 'vLLM OpenAI-compatible server, ErrorResponse for an over-long prompt (BadRequestError, code 400)',
    api: 'anthropic',
    mode: 'generate',
    status: 400,
    body: json({
      object: 'error',
      message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    }),
    expect: { kind: 'context_overflow', isRetryable: false },
  },
  {
    source: 'Anthropic docs, Streaming messages (tool use with input_json_delta), stream cut before message_delta',
    api: 'anthropic',
    mode: 'stream',
    status: 200,
    body: anthropicSse(
      start,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_h', name: 'get_weather', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"location": "San Fra' },
      },
    ),
    expect: { kind: 'incomplete_stream', isRetryable: true },
  },
  {
    source: 'OpenAI docs, Error codes (429 insufficient_quota)',
    api: 'openai',
    mode: 'generate',
    status: 429,
    body: json({
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    }),
    expect: { kind: 'quota_exceeded', isRetryable: false },
  },
  {
    source: 'OpenAI docs, Error codes (400 context_length_exceeded)',
    api: 'openai',
    mode: 'generate',
    status: 400,
    body: json({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    }),
    expect: { kind: 'context_overflow', isRetryable: false },
  },
  {
    source: 'OpenRouter docs, Errors (402 insufficient credits)',
    api: 'openai',
    mode: 'generate',
    status: 402,
    body: json({ error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits' } }),
    expect: { kind: 'quota_exceeded', isRetryable: false },
  },
  {
    source: 'OpenRouter docs, Errors during streaming (error chunk with finish_reason "error" after content)',
    api: 'openai',
    mode: 'stream',
    status: 200,
    body:
      chunk({ choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] }) +
      chunk({
        error: { code: 'server_error', message: 'Provider disconnected unexpectedly' },
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
      }),
    expect: { kind: 'server_error', isRetryable: true },
  },
  {
    source: 'Azure OpenAI docs, Content filtering (400 code content_filter)',
    api: 'openai',
    mode: 'generate',
    status: 400,
    body: json({
      error: {
        message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        type: null,
        param: 'prompt',
        code: 'content_filter',
        status: 400,
      },
    }),
    expect: { kind: 'content_filter', isRetryable: false },
  },
  {
    source: 'Ollama docs/issues, OpenAI compatibility (a model without tools: 400 "does not support tools")',
    api: 'openai',
    mode: 'generate',
    status: 400,
    body: json({
      error: {
        message: 'registry.ollama.ai/library/phi3:latest does not support tools',
        type: 'api_error',
        param: null,
        code: null,
      },
    }),
    expect: { kind: 'tools_unsupported', isRetryable: false },
  },
  {
    source: 'llama.cpp tools/server README (503 while the model loads: unavailable_error)',
    api: 'openai',
    mode: 'generate',
    status: 503,
    body: json({ error: { code: 503, message: 'Loading model', type: 'unavailable_error' } }),
    expect: { kind: 'server_error', isRetryable: true },
  },
  {
    source: 'Groq docs, Errors (400 tool_use_failed with failed_generation)',
    api: 'openai',
    mode: 'generate',
    status: 400,
    body: json({
      error: {
        message: 'Failed to call a function. Please adjust your prompt.',
        type: 'invalid_request_error',
        code: 'tool_use_failed',
        failed_generation: '<function=x>',
      },
    }),
    expect: { kind: 'invalid_request', isRetryable: false },
  },
  {
    source: 'OpenAI API reference, chat completion chunk ([DONE] without any finish_reason: an incomplete stream)',
    api: 'openai',
    mode: 'stream',
    status: 200,
    body: `${chunk({ choices: [{ index: 0, delta: { content: 'par' }, finish_reason: null }] })}data: [DONE]\n\n`,
    expect: { kind: 'incomplete_stream', isRetryable: true },
  },
  {
    source: 'Mistral docs, API errors (401 Unauthorized body {"message": "Unauthorized"})',
    api: 'openai',
    mode: 'generate',
    status: 401,
    body: json({ message: 'Unauthorized', request_id: 'abc' }),
    expect: { kind: 'auth', isRetryable: false },
  },
];

let current: Exchange = exchanges[0] as Exchange;
let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const type = current.mode === 'stream' && current.status === 200 ? 'text/event-stream' : 'application/json';
      response.writeHead(current.status, { 'content-type': type, ...current.headers }).end(current.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function modelFor(api: Exchange['api']): LanguageModelV1 {
  return api === 'anthropic'
    ? createAnthropic({ baseURL: url, apiKey: 'sk-ant-holdout-0000' })('claude-x')
    : createOpenAICompatible({ baseURL: url, apiKey: 'sk-holdout-0000', name: 'holdout' })('m');
}

async function outcome(exchange: Exchange): Promise<unknown> {
  current = exchange;
  const model = modelFor(exchange.api);
  const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
  if (exchange.mode === 'generate') {
    try {
      await model.doGenerate(request);
      return undefined;
    } catch (error) {
      return error;
    }
  }
  const settled = await collectStreamSettled((await model.doStream(request)).stream);
  return settled.error;
}

describe('WIRE-3 held-out exchanges (20, documented behaviour, not tuned on)', () => {
  it.each(exchanges.map((exchange) => [exchange.source, exchange] as const))('%s', async (_source, exchange) => {
    const error = await outcome(exchange);
    expect(ModelCallError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject(exchange.expect);
  });
});
