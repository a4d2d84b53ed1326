import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ToolMessage } from '../messages/message.js';
import { pairToolCycles } from './pair-tool-cycles.js';
import { toTranscriptEntries } from './transcript-entry.js';

const system: Message = { role: 'system', content: 'sys' };
const user: Message = { role: 'user', content: 'hi' };
const calls = (...ids: string[]): AssistantMessage => ({
  role: 'assistant',
  content: `calling ${ids.join(',')}`,
  toolCalls: ids.map((id) => ({ id, name: 'lookup', arguments: `{"q":"${id}"}` })),
  reasoningContent: 'thinking',
});
const result = (id: string): ToolMessage => ({ role: 'tool', toolCallId: id, content: `result ${id}` });

describe('pairToolCycles', () => {
  it('keeps complete cycles untouched, whatever the result order', () => {
    const history = [system, user, calls('a', 'b'), result('b'), result('a'), { role: 'assistant', content: 'done' }];
    const paired = pairToolCycles(history as Message[]);
    expect(paired).toEqual(history);
    expect(paired[2]).toBe(history[2]);
  });

  it('drops an assistant turn with a missing result and its partial results', () => {
    const paired = pairToolCycles([user, calls('a', 'b'), result('a'), user]);
    expect(paired).toEqual([user, user]);
  });

  it('drops both sides when there are extra results', () => {
    expect(pairToolCycles([user, calls('a'), result('a'), result('b')])).toEqual([user]);
  });

  it('compares id sets, not adjacency: results for other ids do not pair', () => {
    expect(pairToolCycles([user, calls('a'), result('x')])).toEqual([user]);
  });

  it('drops orphan results whose opener was cut off', () => {
    expect(pairToolCycles([system, result('a'), result('b'), user])).toEqual([system, user]);
  });

  it('requires results immediately after the call', () => {
    expect(pairToolCycles([user, calls('a'), user, result('a')])).toEqual([user, user]);
  });

  it('drops an unanswered final call turn and treats an empty call list as chat', () => {
    const empty: AssistantMessage = { role: 'assistant', content: 'no calls', toolCalls: [] };
    expect(pairToolCycles([user, empty, calls('a')])).toEqual([user, empty]);
  });

  it('counts duplicate ids', () => {
    expect(pairToolCycles([calls('a', 'a'), result('a')])).toEqual([]);
    expect(pairToolCycles([calls('a', 'a'), result('a'), result('a')])).toHaveLength(3);
  });
});

describe('toTranscriptEntries', () => {
  it('groups consecutive tool messages into one entry', () => {
    const entries = toTranscriptEntries([user, calls('a', 'b'), result('a'), result('b'), user]);
    expect(entries.map((entry) => entry.kind)).toEqual(['chat', 'assistant_tool_calls', 'tool_results', 'chat']);
  });
});
