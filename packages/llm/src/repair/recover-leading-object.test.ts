import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recoverLeadingObject } from './recover-leading-object.js';
import { recoverRelaxedObject } from './recover-relaxed-object.js';

const fragments = fc
  .array(fc.constantFrom('{', '}', '[', ']', '"', "'", ':', ',', '\\', 'a', '1', ' ', '<|"|>', '</tool_call>', '```'), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));

describe('recoverLeadingObject', () => {
  it('accepts the whole input when it is one object', () => {
    expect(recoverLeadingObject('{city: "Oslo"}  ')).toEqual({ value: { city: 'Oslo' }, end: 14 });
    expect(recoverLeadingObject('{"a":1}<tool_call|>')).toEqual({ value: { a: 1 }, end: 19 });
  });

  it('accepts the first complete object followed by trailing noise', () => {
    const text = '{"a":1} trailing';
    expect(recoverRelaxedObject(text)).toBeUndefined();
    expect(recoverLeadingObject(text)).toEqual({ value: { a: 1 }, end: 7 });
    expect(recoverLeadingObject('{"a":1}<tool_call|>{"b":2}')).toEqual({ value: { a: 1 }, end: 7 });
    expect(recoverLeadingObject('  {a: "}"} and {b: 2}')).toEqual({ value: { a: '}' }, end: 10 });
    expect(recoverLeadingObject('<|tool_call_begin|>{"a":1} more')).toEqual({ value: { a: 1 }, end: 26 });
    expect(recoverLeadingObject('```json\n{"a":1}\n``` and prose')).toEqual({ value: { a: 1 }, end: 15 });
  });

  it('lets the caller continue after the object', () => {
    const text = '{"a":1}\n{"b":2}';
    const first = recoverLeadingObject(text);
    expect(first?.value).toEqual({ a: 1 });
    expect(recoverLeadingObject(text.slice(first?.end ?? 0))?.value).toEqual({ b: 2 });
  });

  it('refuses what the object ladder refuses and text not starting with an object', () => {
    expect(recoverLeadingObject("{'a':'b'} tail")).toBeUndefined();
    expect(recoverLeadingObject('{"a": "trunc')).toBeUndefined();
    expect(recoverLeadingObject('prose {"a":1}')).toBeUndefined();
    expect(recoverLeadingObject('[{"a":1}] tail')).toBeUndefined();
  });

  it('never throws and reports an end inside the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fragments), (text) => {
        const result = recoverLeadingObject(text);
        if (result !== undefined) {
          expect(result.end).toBeGreaterThan(0);
          expect(result.end).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('recoverLeadingObject on large input', () => {
  it('stays linear on pathological input', () => {
    const size = 200_000;
    for (const input of [
      '{"a":'.repeat(size / 5),
      '{'.repeat(size),
      `{"a":1}${' x'.repeat(size / 2)}`,
      '"'.repeat(size),
    ]) {
      recoverLeadingObject(input);
    }
  });
});
