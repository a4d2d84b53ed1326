import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recoverToolArguments } from './recover-tool-arguments.js';

describe('recoverToolArguments', () => {
  it('removes template markers outside strings and reparses', () => {
    expect(recoverToolArguments('{"city":"Oslo"}<|tool_call_end|>')).toEqual({ city: 'Oslo' });
    expect(recoverToolArguments('<|tool_call_argument_begin|>{"id":7}</tool_call>')).toEqual({ id: 7 });
    expect(recoverToolArguments('{"note":"</tool_call>"}<tool_call|>')).toEqual({ note: '</tool_call>' });
  });

  it('takes the first complete leading object when nothing after it would be lost', () => {
    expect(recoverToolArguments('{"a":1}{"a":1}')).toEqual({ a: 1 });
    expect(recoverToolArguments('{"a":1}\n{"a":1}}')).toEqual({ a: 1 });
    expect(recoverToolArguments('{"a":"}"}<|tool_call_end|>')).toEqual({ a: '}' });
  });

  it('refuses a repair that would drop content after the object', () => {
    expect(recoverToolArguments('{"query": "test"}, "limit": 10}')).toBeUndefined();
    expect(recoverToolArguments('{"a":"}"} and some prose')).toBeUndefined();
    expect(recoverToolArguments('{"a":1}{"b":2}')).toBeUndefined();
    expect(recoverToolArguments('{"a":1}\n{"a":1, "b":2}')).toBeUndefined();
  });

  it('falls back to the relaxed object ladder', () => {
    expect(recoverToolArguments('{city: "Oslo"}')).toEqual({ city: 'Oslo' });
    expect(recoverToolArguments('{{"a":1}}')).toEqual({ a: 1 });
    expect(recoverToolArguments('{label_ids:[<|"|>INBOX<|"|>]}')).toEqual({ label_ids: ['INBOX'] });
  });

  it('refuses what the ladder refuses and non-objects', () => {
    expect(recoverToolArguments("{'a':'b'}")).toBeUndefined();
    expect(recoverToolArguments('{"a": "trunc')).toBeUndefined();
    expect(recoverToolArguments('[1,2]')).toBeUndefined();
    expect(recoverToolArguments('')).toBeUndefined();
    expect(recoverToolArguments('   ')).toBeUndefined();
    expect(recoverToolArguments('nope')).toBeUndefined();
  });

  it('makes an empty object only from text that writes one, never from a cut or garbled opening', () => {
    for (const written of ['{}', '{ }', '{,}', '{{}}', '{}}']) expect(recoverToolArguments(written)).toEqual({});
    for (const cut of ['{', '{{', '{ {', '{{}', '{,', '{{,'])
      expect(recoverToolArguments(cut), JSON.stringify(cut)).toBeUndefined();
    expect(recoverToolArguments('{{"a":1}')).toEqual({ a: 1 });
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (text) => {
        recoverToolArguments(text);
      }),
      { numRuns: 1000 },
    );
  });
});
