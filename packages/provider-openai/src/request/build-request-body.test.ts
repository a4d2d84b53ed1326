import { createModelProfile, type LanguageModelV1Request, type ToolSchema } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../model/openai-compatible-settings.js';
import { buildRequestBody, type RequestContext } from './build-request-body.js';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Weather.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const clock: ToolSchema = { name: 'get_time', description: 'Time.', parameters: {} };

function context(overrides: Partial<RequestContext> = {}): RequestContext {
  return {
    modelId: 'm',
    provider: 'test',
    profile: createModelProfile({ structuredOutput: 'json_schema' }),
    settings: resolveSettings('http://127.0.0.1:1/v1'),
    promptGuided: false,
    degraded: new Set(),
    stream: false,
    ...overrides,
  };
}

const base: LanguageModelV1Request = { messages: [{ role: 'user', content: 'hi' }] };

describe('buildRequestBody', () => {
  it('maps every message kind onto the OpenAI shapes', () => {
    const { body, warnings } = buildRequestBody(
      {
        messages: [
          {
            role: 'system',
            content: [
              { type: 'text', text: 'Be brief.' },
              { type: 'text', text: '## Tools' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', mediaType: 'image/png', data: { kind: 'base64', value: 'iVBORw0KGgo=' } },
              { type: 'image', mediaType: 'image/jpeg', data: { kind: 'url', value: 'https://example.com/a.jpg' } },
            ],
          },
          {
            role: 'assistant',
            content: '',
            reasoningContent: 'The user wants weather.',
            toolCalls: [
              {
                id: 'call_1',
                name: 'get_weather',
                arguments: '{"city": "Paris" }',
                extraContent: { google: { thought_signature: 'abc' } },
              },
            ],
          },
          { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: [{ type: 'text', text: 'sunny' }] },
        ],
      },
      context(),
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.\n\n## Tools' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city": "Paris" }' },
            extra_content: { google: { thought_signature: 'abc' } },
          },
        ],
        reasoning_content: 'The user wants weather.',
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]);
    expect(warnings).toEqual([]);
  });

  it('replays broken argument text byte for byte, or as valid JSON for servers that parse it', () => {
    const messages: LanguageModelV1Request['messages'] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'ok',
        toolCalls: [
          { id: 'a', name: 'f', arguments: '{city: "Oslo",}' },
          { id: 'b', name: 'f', arguments: '{"x": "cut' },
          { id: 'c', name: 'f', arguments: '' },
        ],
      },
    ];
    const args = (replayArguments: 'raw' | 'valid_json') =>
      (
        buildRequestBody({ messages }, context({ settings: { ...resolveSettings('http://x/v1'), replayArguments } }))
          .body.messages as { tool_calls?: { function: { arguments: string } }[] }[]
      )[1]?.tool_calls?.map((call) => call.function.arguments);
    expect(args('raw')).toEqual(['{city: "Oslo",}', '{"x": "cut', '']);
    expect(args('valid_json')).toEqual(['{"city":"Oslo"}', '{}', '{}']);
  });

  it('sends tools, tool_choice and parallel_tool_calls, normalising empty parameters', () => {
    const { body, degradable } = buildRequestBody({ ...base, tools: [weather, clock] }, context());
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: weather.parameters } },
      {
        type: 'function',
        function: { name: 'get_time', description: 'Time.', parameters: { type: 'object', properties: {} } },
      },
    ]);
    expect(body.tool_choice).toBe('auto');
    expect(body.parallel_tool_calls).toBe(true);
    expect([...degradable]).toEqual(['parallel_tool_calls']);
  });

  it('sends a named choice natively, or as "required" with the tools narrowed (P3)', () => {
    const request = { ...base, tools: [weather, clock], toolChoice: { type: 'tool', toolName: 'get_time' } } as const;
    expect(buildRequestBody(request, context()).body.tool_choice).toEqual({
      type: 'function',
      function: { name: 'get_time' },
    });
    const local = context({ settings: { ...resolveSettings('http://x/v1'), namedToolChoice: false } });
    const narrowed = buildRequestBody(request, local).body;
    expect(narrowed.tool_choice).toBe('required');
    expect((narrowed.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual([
      'get_time',
    ]);
    const degraded = buildRequestBody(request, context({ degraded: new Set(['tool_choice']) })).body;
    expect(degraded.tool_choice).toBe('required');
    const missing = buildRequestBody({ ...request, toolChoice: { type: 'tool', toolName: 'nope' } }, local);
    expect(missing.body.tool_choice).toBe('required');
    expect((missing.body.tools as unknown[]).length).toBe(2);
    expect(missing.warnings[0]).toMatchObject({ type: 'other' });
  });

  it('maps JSON mode to json_object, or to the permissive schema for local servers (P3)', () => {
    const request = { ...base, responseFormat: { type: 'json' } } as const;
    expect(buildRequestBody(request, context()).body.response_format).toEqual({ type: 'json_object' });
    expect(buildRequestBody(request, context({ degraded: new Set(['response_format']) })).body.response_format).toEqual(
      {
        type: 'json_schema',
        json_schema: { name: 'json_object', schema: { type: 'object' }, strict: false },
      },
    );
  });

  it('sends a strict schema through the strict transform', () => {
    const { body } = buildRequestBody(
      {
        ...base,
        responseFormat: {
          type: 'json_schema',
          name: 'answer',
          description: 'The answer.',
          strict: true,
          schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] },
        },
      },
      context(),
    );
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'answer',
        description: 'The answer.',
        schema: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: ['integer', 'null'] } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });

  it('warns instead of sending a format the profile cannot honour', () => {
    const none = context({ profile: createModelProfile() });
    const result = buildRequestBody({ ...base, responseFormat: { type: 'json' } }, none);
    expect(result.body.response_format).toBeUndefined();
    expect(result.warnings).toEqual([
      { type: 'unsupported_setting', setting: 'responseFormat', details: 'the model profile has no structured output' },
    ]);
  });

  it('applies the sampling settings, stream options and provider options', () => {
    const { body } = buildRequestBody(
      {
        ...base,
        maxTokens: 100,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        seed: 7,
        providerOptions: {
          openaiCompatible: { user: 'u1', extraBody: { top_k: 20 } },
          test: { reasoningEffort: 'low', parallelToolCalls: false },
          other: { reasoningEffort: 'high' },
        },
        tools: [weather],
      },
      context({
        stream: true,
        settings: { ...resolveSettings('http://x/v1'), maxTokensField: 'max_completion_tokens' },
      }),
    );
    expect(body).toMatchObject({
      max_completion_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      stream: true,
      stream_options: { include_usage: true },
      reasoning_effort: 'low',
      user: 'u1',
      top_k: 20,
      parallel_tool_calls: false,
    });
  });

  it('drives tools through the prompt in prompt-guided mode (P4)', () => {
    const plan = buildRequestBody(
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Oslo?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
          },
          { role: 'tool', toolCallId: 'c1', toolName: 'get_weather', content: 'rain' },
        ],
        tools: [weather],
        toolChoice: { type: 'required' },
      },
      context({ promptGuided: true }),
    );
    expect(plan.body.tools).toBeUndefined();
    expect(plan.body.tool_choice).toBeUndefined();
    expect(plan.nativeTools).toBe(false);
    expect(plan.textTools).toEqual([weather]);
    const messages = plan.body.messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[0]?.content).toContain('## Tool Use Protocol');
    expect(messages[0]?.content).toContain('You must emit at least one tool call.');
    expect(messages[2]?.content).toBe('<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>');
    expect(messages[3]?.content).toContain('[Tool results]');
    expect(
      buildRequestBody({ ...base, tools: [weather], toolChoice: { type: 'none' } }, context({ promptGuided: true }))
        .textTools,
    ).toBeUndefined();
  });
});

describe('buildRequestBody: typed provider options and optional descriptions', () => {
  it('sends n and OpenRouter reasoning from typed options, ignoring ill-typed values', () => {
    const { body } = buildRequestBody(
      {
        ...base,
        providerOptions: {
          openaiCompatible: { n: 2, reasoning: { effort: 'high', maxTokens: 2000, exclude: true } },
          test: { reasoning: { enabled: false } },
        },
      },
      context(),
    );
    expect(body.n).toBe(2);
    expect(body.reasoning).toEqual({ enabled: false });
    const first = buildRequestBody(
      { ...base, providerOptions: { openaiCompatible: { n: 3, reasoning: { effort: 'low', maxTokens: 10 } } } },
      context(),
    );
    expect(first.body.reasoning).toEqual({ effort: 'low', max_tokens: 10 });
    const ignored = buildRequestBody({ ...base, providerOptions: { openaiCompatible: { n: 0.5 } } }, context());
    expect(ignored.body.n).toBeUndefined();
  });

  it('leaves out a tool description that is absent', () => {
    const { body } = buildRequestBody(
      { ...base, tools: [{ name: 'ping', parameters: { type: 'object', properties: {} } }] },
      context(),
    );
    const [tool] = body.tools as { function: Record<string, unknown> }[];
    expect(tool?.function.name).toBe('ping');
    expect('description' in (tool?.function ?? {})).toBe(false);
  });
});
