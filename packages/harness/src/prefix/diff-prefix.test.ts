import type { Message, ToolSchema } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { diffPrefix } from './diff-prefix.js';
import { fingerprintPrefix } from './prefix-fingerprint.js';

const schema = (name: string, description = `${name} things`): ToolSchema => ({
  name,
  description,
  parameters: { type: 'object', properties: { id: { type: 'string' } } },
});
const system: Message = { role: 'system', content: 'You help.' };
const turns: Message[] = [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello' },
  { role: 'user', content: 'more' },
];
const a = schema('a');
const b = schema('b');
const c = schema('c');

describe('diffPrefix', () => {
  it('sees no break when tools and messages are only appended', () => {
    const before = fingerprintPrefix([a, b], [system, ...turns.slice(0, 1)]);
    const after = fingerprintPrefix([a, b, c], [system, ...turns]);
    expect(diffPrefix(before, after)).toBeUndefined();
    expect(diffPrefix(before, fingerprintPrefix([a, b], [system, ...turns.slice(0, 1)]))).toBeUndefined();
  });

  it('names an inserted tool as added, and counts the tools after it, the system and history as lost', () => {
    const before = fingerprintPrefix([a, b], [system, ...turns]);
    const after = fingerprintPrefix([a, c, b], [system, ...turns]);
    const broke = diffPrefix(before, after);
    expect(broke?.changes).toEqual([{ part: 'tool', change: 'added', toolName: 'c' }]);
    const lostChars =
      JSON.stringify(b).length +
      JSON.stringify(system).length +
      turns.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
    expect(broke?.lostPrefixTokens).toBe(Math.ceil(lostChars / 4));
  });

  it('names removed, changed and reordered tools', () => {
    const before = fingerprintPrefix([a, b, c], [system]);
    expect(diffPrefix(before, fingerprintPrefix([a, c], [system]))?.changes).toEqual([
      { part: 'tool', change: 'removed', toolName: 'b' },
    ]);
    expect(diffPrefix(before, fingerprintPrefix([a, schema('b', 'new'), c], [system]))?.changes).toEqual([
      { part: 'tool', change: 'changed', toolName: 'b' },
    ]);
    expect(diffPrefix(before, fingerprintPrefix([b, a, c], [system]))?.changes).toEqual([
      { part: 'tool', change: 'reordered', toolName: 'b' },
      { part: 'tool', change: 'reordered', toolName: 'a' },
    ]);
  });

  it('names the system text and the first rewritten history message', () => {
    const before = fingerprintPrefix([a], [system, ...turns]);
    const rewritten: Message[] = [turns[0] as Message, { role: 'assistant', content: 'HELLO' }, turns[2] as Message];
    const broke = diffPrefix(before, fingerprintPrefix([a], [system, ...rewritten]));
    expect(broke?.changes).toEqual([{ part: 'history', change: 'rewritten', index: 1 }]);
    expect(broke?.lostPrefixTokens).toBe(
      Math.ceil((JSON.stringify(turns[1]).length + JSON.stringify(turns[2]).length) / 4),
    );
    // A shorter history (a fold or a trim) is a rewrite at its end.
    expect(diffPrefix(before, fingerprintPrefix([a], [system, turns[0] as Message]))?.changes).toEqual([
      { part: 'history', change: 'rewritten', index: 1 },
    ]);
    expect(diffPrefix(before, fingerprintPrefix([a], [{ role: 'system', content: 'x' }, ...turns]))?.changes).toEqual([
      { part: 'system', change: 'changed' },
    ]);
  });

  it('hashes what is sent: equal-looking declarations with another key order differ', () => {
    const reordered: ToolSchema = { description: a.description, name: 'a', parameters: a.parameters };
    expect(diffPrefix(fingerprintPrefix([a], []), fingerprintPrefix([reordered], []))?.changes).toEqual([
      { part: 'tool', change: 'changed', toolName: 'a' },
    ]);
  });
});
