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
  it('sees no break when messages are only appended', () => {
    const before = fingerprintPrefix([a, b], [system, ...turns.slice(0, 1)]);
    expect(diffPrefix(before, fingerprintPrefix([a, b], [system, ...turns]))).toBeUndefined();
    expect(diffPrefix(before, fingerprintPrefix([a, b], [system, ...turns.slice(0, 1)]))).toBeUndefined();
  });

  it('names an appended tool as added (appended): the system and history after the tools are lost', () => {
    const before = fingerprintPrefix([a, b], [system, ...turns.slice(0, 1)]);
    const broke = diffPrefix(before, fingerprintPrefix([a, b, c], [system, ...turns]));
    expect(broke?.changes).toEqual([{ part: 'tool', change: 'added', toolName: 'c', appended: true }]);
    const lostChars = JSON.stringify(system).length + JSON.stringify(turns[0]).length;
    expect(broke?.lostPrefixTokens).toBe(Math.ceil(lostChars / 4));
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

  it('hashes only what is sent, canonically: key order, outputSchema and extra members are no change', () => {
    const reordered: ToolSchema = {
      parameters: { properties: { id: { type: 'string' } }, type: 'object' },
      name: 'a',
      description: a.description,
    };
    expect(diffPrefix(fingerprintPrefix([a], [system]), fingerprintPrefix([reordered], [system]))).toBeUndefined();
    const withOutput = { ...a, outputSchema: { type: 'string' }, annotations: { readOnlyHint: true } } as ToolSchema;
    expect(diffPrefix(fingerprintPrefix([a], [system]), fingerprintPrefix([withOutput], [system]))).toBeUndefined();
    // The member order of `properties` is model-visible: another order is a change.
    const x = { type: 'string' };
    const xy: ToolSchema = { name: 'a', parameters: { type: 'object', properties: { x, y: x } } };
    const yx: ToolSchema = { name: 'a', parameters: { type: 'object', properties: { y: x, x } } };
    expect(diffPrefix(fingerprintPrefix([xy], []), fingerprintPrefix([yx], []))?.changes).toEqual([
      { part: 'tool', change: 'changed', toolName: 'a' },
    ]);
  });

  it('counts a system-role message anywhere in the system part: adding, changing or removing one changes the system', () => {
    const midSystem: Message = { role: 'system', content: 'Reviewer: answer in one sentence.' };
    const before = fingerprintPrefix([a], [system, ...turns]);
    const added = fingerprintPrefix([a], [system, ...turns.slice(0, 2), midSystem, turns[2] as Message]);
    expect(diffPrefix(before, added)?.changes).toEqual([{ part: 'system', change: 'changed' }]);
    const changed = fingerprintPrefix(
      [a],
      [system, ...turns.slice(0, 2), { ...midSystem, content: 'x' }, turns[2] as Message],
    );
    expect(diffPrefix(added, changed)?.changes).toEqual([{ part: 'system', change: 'changed' }]);
    expect(diffPrefix(added, before)?.changes).toEqual([{ part: 'system', change: 'changed' }]);
  });

  it('names a tool choice or response format change as a settings change, losing the history', () => {
    const before = fingerprintPrefix([a], [system, ...turns], { toolChoice: { type: 'auto' } });
    const forced = fingerprintPrefix([a], [system, ...turns], { toolChoice: { type: 'tool', toolName: 'a' } });
    const broke = diffPrefix(before, forced);
    expect(broke?.changes).toEqual([{ part: 'settings', change: 'changed' }]);
    expect(broke?.lostPrefixTokens).toBe(
      Math.ceil(turns.reduce((sum, message) => sum + JSON.stringify(message).length, 0) / 4),
    );
    const json = fingerprintPrefix([a], [system, ...turns], {
      toolChoice: { type: 'auto' },
      responseFormat: { type: 'json' },
    });
    expect(diffPrefix(before, json)?.changes).toEqual([{ part: 'settings', change: 'changed' }]);
    expect(
      diffPrefix(before, fingerprintPrefix([a], [system, ...turns], { toolChoice: { type: 'auto' } })),
    ).toBeUndefined();
  });
});
