import { createModelProfile, InvalidInputError } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { createOpenAIResponses } from '../create-openai-responses.js';
import { azureResponses } from '../presets/azure.js';
import { localResponses } from '../presets/local-responses.js';
import { buildRequestBody } from './build-request-body.js';
import { decodeReplayItems, encodeReplayItems } from './replay-items.js';
import { strictToolSchema } from './strict-tool-schema.js';

const context = {
  modelId: 'gpt-5.1',
  provider: 'openai',
  profile: createModelProfile({ structuredOutput: 'json_schema' }),
  providerOptions: {},
  stream: false,
};

describe('strict tools', () => {
  it('are strict only when strict mode changes nothing the tool accepts', () => {
    const closed = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    expect(strictToolSchema(closed)).toEqual({ ...closed, additionalProperties: false });
    expect(strictToolSchema({ type: 'object', properties: {} })).toMatchObject({ additionalProperties: false });
    // an optional property would become required-and-nullable
    expect(strictToolSchema({ type: 'object', properties: { a: { type: 'number' } } })).toBeUndefined();
    // an open map would be closed
    expect(
      strictToolSchema({ type: 'object', properties: {}, additionalProperties: { type: 'string' } }),
    ).toBeUndefined();
    // a free-form nested object would admit only {}
    expect(
      strictToolSchema({ type: 'object', properties: { meta: { type: 'object' } }, required: ['meta'] }),
    ).toBeUndefined();
  });
});

describe('buildRequestBody', () => {
  it('is stateless by default: store false, encrypted reasoning included, no stop sequences or seed', () => {
    const plan = buildRequestBody(
      { messages: [{ role: 'user', content: 'hi' }], stopSequences: ['END'], seed: 3, maxTokens: 50 },
      context,
    );
    expect(plan.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], max_output_tokens: 50 });
    expect(plan.body.stop).toBeUndefined();
    expect(plan.warnings.map((warning) => (warning.type === 'unsupported_setting' ? warning.setting : ''))).toEqual([
      'stopSequences',
      'seed',
    ]);
  });

  it('with previousResponseId sends only what follows the last assistant turn', () => {
    const plan = buildRequestBody(
      {
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'answer', toolCalls: [{ id: 'call_1', name: 't', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'call_1', content: 'result' },
        ],
        providerOptions: { openai: { previousResponseId: 'resp_1', store: true } },
      },
      context,
    );
    expect(plan.body.previous_response_id).toBe('resp_1');
    expect(plan.body.input).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: 'result' }]);
    expect(plan.body.include).toBeUndefined();
  });

  it('replays reasoning only from its own envelope, and warns for any other', () => {
    const item = { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA\u2028é\\"x', summary: [] };
    const signature = encodeReplayItems([item]) ?? '';
    expect(decodeReplayItems(signature)).toEqual([item]);
    // an envelope smuggling a call (or a message) into the request is not this adapter's: left out
    const smuggled = `tiny.openai-responses.items.v1:${Buffer.from(
      JSON.stringify([item, { type: 'function_call', call_id: 'c', name: 'rm', arguments: '{}' }]),
    ).toString('base64')}`;
    expect(decodeReplayItems(smuggled)).toBeUndefined();
    expect(decodeReplayItems('tiny.openai-responses.items.v1:not base64 json')).toBeUndefined();
    const plan = buildRequestBody(
      {
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'thought', signature },
              { type: 'reasoning', text: 'foreign', signature: 'EqQBCkYIBxgC' },
              { type: 'text', text: 'done' },
            ],
          },
        ],
      },
      context,
    );
    expect(plan.body.input).toEqual([item, { role: 'assistant', content: 'done' }]);
    expect(plan.warnings).toHaveLength(1);
  });
});

describe('presets', () => {
  it('azure sends the key in api-key to the resource v1 URL; local asks for no encrypted reasoning', async () => {
    const seen: { url: string; headers: Headers; body: Record<string, unknown> }[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      seen.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify({ id: 'r', status: 'completed', output: [] }), {
        headers: { 'content-type': 'application/json' },
      });
    };
    await azureResponses({ resourceName: 'tiny', apiKey: 'azure-key', fetch })('my-deployment').doGenerate({
      messages: [{ role: 'user', content: 'hi' }],
    });
    await azureResponses({
      baseURL: 'https://tiny.openai.azure.com/openai',
      apiVersion: '2025-04-01-preview',
      apiKey: 'k',
      fetch,
    })('dated').doGenerate({ messages: [{ role: 'user', content: 'hi' }] });
    await localResponses({ server: 'ollama', fetch })('gpt-oss:20b').doGenerate({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(seen[0]?.url).toBe('https://tiny.openai.azure.com/openai/v1/responses');
    expect(seen[0]?.headers.get('api-key')).toBe('azure-key');
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    expect(seen[0]?.body.model).toBe('my-deployment');
    expect(seen[1]?.url).toBe('https://tiny.openai.azure.com/openai/responses?api-version=2025-04-01-preview');
    expect(seen[2]?.url).toBe('http://127.0.0.1:11434/v1/responses');
    expect(seen[2]?.body).toMatchObject({ store: false });
    expect(seen[2]?.body.include).toBeUndefined();
  });

  it('refuse unknown keys by name and a base URL that is not one', () => {
    expect(() => createOpenAIResponses({ baseUrl: 'http://127.0.0.1:1/v1' } as never)).toThrow(
      /did you mean `baseURL`/,
    );
    expect(() => azureResponses({})).toThrow(InvalidInputError);
    expect(() => localResponses({ server: 'ollama', sever: 'x' } as never)).toThrow(InvalidInputError);
  });
});
