import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeArguments } from './decode-arguments.js';

describe('decodeArguments', () => {
  it('returns an object as is', () => {
    const args = { a: 1 };
    expect(decodeArguments(args)).toBe(args);
  });

  it('decodes strings: plain, fenced, double-encoded and relaxed JSON', () => {
    expect(decodeArguments('{"a":1}')).toEqual({ a: 1 });
    expect(decodeArguments('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(decodeArguments(JSON.stringify('{"a":1}'))).toEqual({ a: 1 });
    expect(decodeArguments('{a:1}')).toEqual({ a: 1 });
    expect(decodeArguments('{"query":"inbox"}<tool_call|>')).toEqual({ query: 'inbox' });
  });

  it('returns {} for missing, empty, undecodable and non-object arguments', () => {
    expect(decodeArguments(undefined)).toEqual({});
    expect(decodeArguments(null)).toEqual({});
    expect(decodeArguments('')).toEqual({});
    expect(decodeArguments('   ')).toEqual({});
    expect(decodeArguments('garbage')).toEqual({});
    expect(decodeArguments("{'a':'b'}")).toEqual({});
    expect(decodeArguments('[1,2]')).toEqual({});
    expect(decodeArguments([1, 2])).toEqual({});
    expect(decodeArguments(42)).toEqual({});
    expect(decodeArguments(JSON.stringify(JSON.stringify('{"a":1}')))).toEqual({});
  });
});

describe('decodeArguments on arbitrary text', () => {
  it('never throws and always returns an object', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.jsonValue()), (value) => {
        const decoded = decodeArguments(value);
        expect(typeof decoded).toBe('object');
        expect(Array.isArray(decoded)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});
