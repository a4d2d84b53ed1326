import { describe, expect, it } from 'vitest';
import { parseToolResultsEnvelope } from '../envelope/parse-tool-results-envelope.js';
import { type Message, messageText } from '../messages/message.js';
import { coalesceToolResults } from './coalesce-tool-results.js';
import { ensureResolvableUserTurn } from './ensure-resolvable-user-turn.js';

const user: Message = { role: 'user', content: 'Weather in Paris and Oslo?' };

describe('coalesceToolResults', () => {
  it('writes recorded calls into the assistant text and clears the structured field', () => {
    const assistant: Message = {
      role: 'assistant',
      content: 'Checking both.',
      reasoningContent: 'two cities',
      toolCalls: [
        { id: 'c1', name: 'get_weather', arguments: '{"city": "Paris"}', extraContent: { signature: 's' } },
        { id: 'c2', name: 'get_weather', arguments: '{city: Oslo' },
        { id: 'c3', name: 'now', arguments: '  ' },
      ],
    };
    const [out] = coalesceToolResults([assistant]);
    expect(out).toEqual({
      role: 'assistant',
      reasoningContent: 'two cities',
      content:
        'Checking both.\n' +
        '<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>\n' +
        '<tool_call>{"name":"get_weather","arguments":"{city: Oslo"}</tool_call>\n' +
        '<tool_call>{"name":"now","arguments":{}}</tool_call>',
    });
  });

  it('uses the given call renderer and handles empty and part contents', () => {
    const renderCall = (name: string, args: unknown): string => `CALL ${name} ${JSON.stringify(args)}`;
    const empty: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'a', name: 'x', arguments: '{"k":1}' }],
    };
    expect(coalesceToolResults([empty], { renderCall })[0]).toEqual({ role: 'assistant', content: 'CALL x {"k":1}' });
    const parts: Message = {
      role: 'assistant',
      content: [{ type: 'reasoning', text: 'hmm', signature: 'sig' }],
      toolCalls: [{ id: 'a', name: 'x', arguments: '{}' }],
    };
    expect(coalesceToolResults([parts], { renderCall })[0]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'hmm', signature: 'sig' },
        { type: 'text', text: 'CALL x {}' },
      ],
    });
  });

  it('keeps raw tagged text byte for byte instead of writing the calls twice', () => {
    const raw = 'Sure.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const assistant: Message = {
      role: 'assistant',
      content: raw,
      toolCalls: [{ id: 'run-1-tool-0', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    };
    expect(coalesceToolResults([assistant])).toEqual([{ role: 'assistant', content: raw }]);
  });

  it('folds each run of tool messages into one user turn, in order', () => {
    const history: Message[] = [
      user,
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'get_weather', arguments: '{}' },
          { id: 'c2', name: 'get_weather', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'get_weather', content: 'sunny' },
      { role: 'tool', toolCallId: 'c2', content: [{ type: 'text', text: 'no such city' }], isError: true },
      { role: 'assistant', content: 'Done.' },
    ];
    const out = coalesceToolResults(history);
    expect(out.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(out[0]).toBe(user);
    expect(out[3]).toBe(history[4]);
    const folded = messageText(out[2]!);
    expect(folded.startsWith('[Tool results]\n')).toBe(true);
    expect(parseToolResultsEnvelope(folded)).toEqual([
      { attributes: { name: 'get_weather', status: 'ok' }, body: 'sunny' },
      { attributes: { id: 'c2', status: 'error' }, body: 'no such city' },
    ]);
  });

  it('gives a trusted-verbatim result its own raw turn, which is not the user query', () => {
    const history: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'load_skill', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'load_skill', content: '<b>Use French.</b>', trustedVerbatim: true },
    ];
    const out = coalesceToolResults(history);
    expect(out[2]).toEqual({ role: 'user', content: '<b>Use French.</b>' });
    expect(ensureResolvableUserTurn(out)[1]).toEqual({
      role: 'user',
      content: 'Continue with the task described above.',
    });
  });
});
