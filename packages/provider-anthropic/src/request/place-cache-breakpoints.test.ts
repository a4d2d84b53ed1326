import { createModelProfile, type Message } from '@tiny/llm';
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
const tool = (name: string) => ({ name, description: `the ${name} tool`, parameters: { type: 'object' } });
type Block = Record<string, unknown>;

/** Where each breakpoint went, as `tools[i]`, `system[i]` or `messages[i][j]`. */
function breakpoints(body: Record<string, unknown>): string[] {
  const found: string[] = [];
  const visit = (blocks: readonly Block[], name: (index: number) => string) => {
    for (const [index, block] of blocks.entries()) if (block.cache_control !== undefined) found.push(name(index));
  };
  visit((body.tools ?? []) as Block[], (index) => `tools[${index}]`);
  visit((body.system ?? []) as Block[], (index) => `system[${index}]`);
  for (const [at, message] of (body.messages as { content: Block[] }[]).entries())
    visit(message.content, (index) => `messages[${at}][${index}]`);
  return found;
}

// An agent transcript: a user turn, a call, its result, a second call with two results.
const transcript: Message[] = [
  { role: 'system', content: 'You help.' },
  { role: 'user', content: 'look both up' },
  { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'a', arguments: '{}' }] },
  { role: 'tool', toolCallId: 't1', content: 'one' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 't2', name: 'b', arguments: '{}' },
      { id: 't3', name: 'b', arguments: '{}' },
    ],
  },
  { role: 'tool', toolCallId: 't2', content: 'two' },
  { role: 'tool', toolCallId: 't3', content: 'three' },
];

describe("cacheControl: 'auto'", () => {
  it('marks the newest turn, the last tool, the system prompt and the end of the previous request', () => {
    const { body } = buildRequestBody(
      { messages: transcript, tools: [tool('a'), tool('b')], providerOptions: { anthropic: { cacheControl: 'auto' } } },
      context,
    );
    // Wire messages: user, assistant, user(tool_result), assistant, user(two tool_results).
    expect(breakpoints(body)).toEqual(['tools[1]', 'system[0]', 'messages[2][0]', 'messages[4][1]']);
    const wire = body.messages as { content: Block[] }[];
    expect(wire[4]?.content[1]?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('marks the previous request by wire position when the latest assistant turn is empty and dropped', () => {
    // A forced choice the model ignored with an empty reply: the harness records an empty
    // assistant turn and nudges again. The previous request ended at the tool result (wire m2);
    // the empty turn is not sent, so the newest user turn follows it on the wire.
    const messages: Message[] = [
      { role: 'user', content: 'look it up' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'a', arguments: '{}' }] },
      { role: 'tool', toolCallId: 't1', content: 'one' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'Call a tool.' },
    ];
    const { body } = buildRequestBody(
      { messages, tools: [tool('a')], providerOptions: { anthropic: { cacheControl: 'auto' } } },
      context,
    );
    expect((body.messages as unknown[]).length).toBe(4);
    expect(breakpoints(body)).toEqual(['tools[0]', 'messages[2][0]', 'messages[3][0]']);
  });

  it('never passes four: breakpoints the host set on server tools count and stay', () => {
    const { body } = buildRequestBody(
      {
        messages: transcript,
        tools: [tool('a')],
        providerOptions: {
          anthropic: {
            cacheControl: 'auto',
            serverTools: [
              { type: 'web_search_20250305', name: 'web_search', cache_control: { type: 'ephemeral', ttl: '1h' } },
              { type: 'other', name: 'x', cache_control: { type: 'ephemeral' } },
            ],
          },
        },
      },
      context,
    );
    const marks = breakpoints(body);
    expect(marks).toHaveLength(4);
    expect(marks).toEqual(['tools[1]', 'tools[2]', 'system[0]', 'messages[4][1]']);
    expect(((body.tools as Block[])[1] as Block).cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
  });

  it('marks a first request with no tools on its system prompt and its one user turn, and never a thinking block', () => {
    const first = buildRequestBody(
      { messages: transcript.slice(0, 2), providerOptions: { anthropic: { cacheControl: 'auto' } } },
      context,
    );
    expect(breakpoints(first.body)).toEqual(['system[0]', 'messages[0][0]']);
    const thinking = buildRequestBody(
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm', signature: 'sig' }] },
        ],
        providerOptions: { anthropic: { cacheControl: 'auto' } },
      },
      context,
    );
    const wire = thinking.body.messages as { content: Block[] }[];
    expect(wire[1]?.content.map((block) => block.type)).toEqual(['thinking']);
    // The thinking block is skipped; the previous request's end (the user turn) is marked.
    expect(breakpoints(thinking.body)).toEqual(['messages[0][0]']);
  });

  it('the ttl of an object option still applies, and `true` keeps its old placement', () => {
    const { body } = buildRequestBody(
      { messages: transcript, tools: [tool('a')], providerOptions: { anthropic: { cacheControl: true } } },
      context,
    );
    expect(breakpoints(body)).toEqual(['tools[0]', 'system[0]', 'messages[2][0]', 'messages[4][1]']);
  });
});
