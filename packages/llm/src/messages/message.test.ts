import { describe, expect, it } from 'vitest';
import { type Message, messageText } from './message.js';

describe('messageText', () => {
  it('joins text parts and skips media and reasoning', () => {
    const message: Message = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'a' },
        { type: 'image', mediaType: 'image/png', data: { kind: 'url', value: 'https://x' } },
        { type: 'text', text: 'b' },
      ],
    };
    expect(messageText(message)).toBe('a\nb');
    expect(messageText({ role: 'user', content: 'plain' })).toBe('plain');
  });

  it('survives a JSON round trip with tool calls, reasoning and extra content intact', () => {
    const message: Message = {
      role: 'assistant',
      content: '<tool_call>{"name":"x","arguments":{}}</tool_call>',
      reasoningContent: 'because',
      toolCalls: [
        { id: 'c1', name: 'x', arguments: '{ "a" : 1 }', extraContent: { google: { thought_signature: 'sig' } } },
      ],
    };
    expect(JSON.parse(JSON.stringify(message))).toEqual(message);
  });
});
