import type { ToolSchema } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { parseCompletion } from './parse-completion.js';
import type { ReadContext } from './read-context.js';

const note: ToolSchema = {
  name: 'opt',
  description: 'Takes an optional note.',
  parameters: { type: 'object', properties: { note: { type: 'string' } } },
};

const context: ReadContext = {
  provider: 'test',
  extractThinking: true,
  textTools: [note],
  nextTextSequence: () => 1,
};

function completion(content: string) {
  const body = {
    id: 'c',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  };
  return parseCompletion(body, JSON.stringify(body), context);
}

describe('calls read from the text in prompt-guided mode', () => {
  it('keeps decoded arguments with their compact JSON as the raw text', () => {
    const read = completion('<tool_call>{"name":"opt","arguments":{"note":"hi"}}</tool_call>');
    expect(read.toolCalls).toEqual([
      { id: 'text-1-0', name: 'opt', arguments: { note: 'hi' }, rawArguments: '{"note":"hi"}' },
    ]);
  });

  it.each([
    ['unparseable JSON', '"{\\"note\\": }"'],
    ['a number', '5'],
    ['an array', '[]'],
    ['a string', '"oops"'],
  ])('keeps %s as an invalid call with the raw text, never {}', (_label, value) => {
    const read = completion(`<tool_call>{"name":"opt","arguments":${value}}</tool_call>`);
    const [call] = read.toolCalls;
    expect(call?.invalid).toEqual(expect.any(String));
    expect(typeof call?.arguments).toBe('string');
    expect(call?.arguments).not.toEqual({});
    expect(call?.rawArguments).toBe(call?.arguments);
  });
});
