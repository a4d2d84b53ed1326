import { createModelProfile, type LanguageModelV1Request } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { buildRequestBody } from './build-request-body.js';

const context = {
  modelId: 'claude-sonnet-4-5',
  provider: 'anthropic',
  profile: createModelProfile(),
  defaultMaxTokens: 4096,
  providerOptions: {},
  stream: false,
};
const tool = (name: string) => ({
  name,
  description: `the ${name} tool`,
  parameters: { type: 'object', properties: { x: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } },
});

describe('buildRequestBody', () => {
  it('maps every tool choice, and disable_parallel_tool_use from the option or a profile without parallel calls', () => {
    const choice = (toolChoice: LanguageModelV1Request['toolChoice'], extra = {}) =>
      buildRequestBody({ messages: [], tools: [tool('a')], toolChoice }, { ...context, ...extra }).body.tool_choice;
    expect(choice(undefined)).toBeUndefined();
    expect(choice({ type: 'none' })).toEqual({ type: 'none' });
    expect(choice({ type: 'required' })).toEqual({ type: 'any' });
    expect(choice({ type: 'tool', toolName: 'a' })).toEqual({ type: 'tool', name: 'a' });
    expect(choice({ type: 'auto' }, { providerOptions: { disableParallelToolUse: true } })).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
    expect(choice({ type: 'required' }, { profile: createModelProfile({ parallelToolCalls: false }) })).toEqual({
      type: 'any',
      disable_parallel_tool_use: true,
    });
    expect(
      buildRequestBody({ messages: [], toolChoice: { type: 'required' } }, context).body.tool_choice,
    ).toBeUndefined();
  });

  it('projects tool schemas for Anthropic (references inlined) in the given order', () => {
    const { body } = buildRequestBody({ messages: [], tools: [tool('b'), tool('a')] }, context);
    expect(JSON.stringify(body.tools)).toBe(
      JSON.stringify([
        {
          name: 'b',
          description: 'the b tool',
          input_schema: { type: 'object', properties: { x: { type: 'string' } } },
        },
        {
          name: 'a',
          description: 'the a tool',
          input_schema: { type: 'object', properties: { x: { type: 'string' } } },
        },
      ]),
    );
  });

  it('sends tool results first in one user turn, with is_error, media and documents', () => {
    const { body } = buildRequestBody(
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', mediaType: 'image/png', data: { kind: 'base64', value: 'iVBORw0K' } }],
          },
          {
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 't1', name: 'a', arguments: '{"x":"1"}' },
              { id: 't2', name: 'a', arguments: '{x: "2",}' },
            ],
          },
          { role: 'tool', toolCallId: 't1', content: 'one' },
          { role: 'tool', toolCallId: 't2', content: [{ type: 'text', text: 'boom' }], isError: true },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'and this' },
              {
                type: 'file',
                mediaType: 'application/pdf',
                name: 'a.pdf',
                data: { kind: 'url', value: 'https://x.test/a.pdf' },
              },
              {
                type: 'file',
                mediaType: 'text/plain',
                data: { kind: 'base64', value: Buffer.from('hi').toString('base64') },
              },
            ],
          },
        ],
      },
      context,
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } }],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'a', input: { x: '1' } },
          { type: 'tool_use', id: 't2', name: 'a', input: { x: '2' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'one' },
          { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'boom' }], is_error: true },
          { type: 'text', text: 'and this' },
          { type: 'document', source: { type: 'url', url: 'https://x.test/a.pdf' }, title: 'a.pdf' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hi' } },
        ],
      },
    ]);
  });

  it('places at most four cache breakpoints, with the ttl asked for', () => {
    const { body } = buildRequestBody(
      {
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: 'u1' },
          { role: 'assistant', content: 'a1' },
          { role: 'user', content: 'u2' },
          { role: 'assistant', content: 'a2' },
          { role: 'user', content: 'u3' },
        ],
        tools: [tool('a'), tool('b')],
        providerOptions: { anthropic: { cacheControl: { messages: 3, ttl: '1h' } } },
      },
      context,
    );
    const marks = JSON.stringify(body).split('"cache_control"').length - 1;
    expect(marks).toBe(4);
    const tools = body.tools as Record<string, unknown>[];
    expect(tools[1]?.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(tools[0]?.cache_control).toBeUndefined();
    const messages = body.messages as { content: Record<string, unknown>[] }[];
    expect(messages.map((message) => message.content[0]?.cache_control !== undefined)).toEqual([
      false,
      false,
      true,
      false,
      true,
    ]);
  });

  it('drops sampling settings with extended thinking and reports what it cannot send', () => {
    const plan = buildRequestBody(
      {
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.2,
        seed: 7,
        responseFormat: { type: 'json' },
        providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 }, betas: ['b1', 'b2'] } },
      },
      context,
    );
    expect(plan.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(plan.body.temperature).toBeUndefined();
    expect(plan.betas).toEqual(['b1', 'b2']);
    expect(
      plan.warnings.map((warning) => (warning.type === 'unsupported_setting' ? warning.setting : warning.type)),
    ).toEqual(['seed', 'temperature', 'responseFormat']);
  });

  it('leaves unsigned reasoning out with a warning, never as an unsigned thinking block', () => {
    const plan = buildRequestBody(
      {
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'hmm' },
              { type: 'text', text: 'hello' },
            ],
          },
        ],
      },
      context,
    );
    expect(plan.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    ]);
    expect(plan.warnings).toHaveLength(1);
  });
});

describe('provider options', () => {
  it('reads providerOptions.anthropic for every provider name, the named key winning', () => {
    const { body } = buildRequestBody(
      {
        messages: [{ role: 'user', content: 'hi' }],
        providerOptions: { anthropic: { topK: 5, userId: 'a' }, local: { topK: 9 } },
      },
      { ...context, provider: 'local', providerOptions: { userId: 'model-default' } },
    );
    expect([body.top_k, body.metadata]).toEqual([9, { user_id: 'a' }]);
  });
});
