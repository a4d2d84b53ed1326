import type { Message } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HistoryFold } from './history-fold.js';

const BASE = '0123456789abcdef';

/** The digest of a history of `values` (each taken as one message). */
function digestOf(...values: unknown[]): string {
  const fold = new HistoryFold();
  for (const value of values) fold.add(value as Message);
  return fold.digest(BASE);
}

/** Small values, so that two drawn alike (as JSON) happen often. */
const small: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -0,
      1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'a',
      'ab',
      '"',
      undefined,
    ),
    fc.array(tie('value'), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('a', 'b', '__proto__'), tie('value'), { maxKeys: 2 }),
  ),
})).value;

describe('HistoryFold', () => {
  it('hashes two values alike exactly when JSON.stringify writes them alike', () => {
    fc.assert(
      fc.property(small, small, (left, right) => {
        fc.pre(JSON.stringify(left) !== undefined && JSON.stringify(right) !== undefined);
        expect(digestOf(left) === digestOf(right)).toBe(JSON.stringify(left) === JSON.stringify(right));
      }),
      { numRuns: 2000 },
    );
  });

  it('hashes any value as its JSON text read back (toJSON, wrappers, holes, typed arrays, null prototypes)', () => {
    const anything = fc.anything({
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      withObjectString: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        const json = JSON.stringify(value);
        fc.pre(json !== undefined);
        expect(digestOf(value)).toBe(digestOf(JSON.parse(json)));
      }),
      { numRuns: 1000 },
    );
  });

  it('calls toJSON with its key, as JSON.stringify does', () => {
    const keyed = { toJSON: (key: string) => `key:${key}` };
    expect(digestOf({ role: 'user', content: keyed })).toBe(digestOf({ role: 'user', content: 'key:content' }));
    expect(digestOf([keyed, keyed])).toBe(digestOf(['key:0', 'key:1']));
    expect(digestOf({ at: new Date(0) })).toBe(digestOf({ at: '1970-01-01T00:00:00.000Z' }));
    expect(digestOf({ a: undefined, b: () => 1, c: 1 })).toBe(digestOf({ c: 1 }));
  });

  it('keeps message boundaries and member order: the same characters cut otherwise are another history', () => {
    expect(digestOf({ content: 'ab' }, { content: '' })).not.toBe(digestOf({ content: 'a' }, { content: 'b' }));
    expect(digestOf({ a: 1, b: 2 })).not.toBe(digestOf({ b: 2, a: 1 }));
    expect(digestOf({ a: '1' })).not.toBe(digestOf({ a: 1 }));
    expect(digestOf(['a', 'b'])).not.toBe(digestOf(['ab']));
    expect(digestOf({ content: 'x' })).not.toBe(digestOf({ content: 'x' }, { content: 'x' }));
  });

  it('rejects what JSON.stringify rejects (a cycle, a bigint) and leaves its state as it was', () => {
    const fold = new HistoryFold();
    fold.add({ role: 'user', content: 'hi' });
    const before = fold.digest(BASE);
    const cyclic: Record<string, unknown> = { role: 'user' };
    cyclic.content = [cyclic];
    expect(() => JSON.stringify(cyclic)).toThrow(TypeError);
    expect(() => fold.add(cyclic as unknown as Message)).toThrow(TypeError);
    expect(() => fold.add({ role: 'user', content: 1n } as unknown as Message)).toThrow(TypeError);
    expect(() => fold.add({ role: 'user', content: Object(1n) } as unknown as Message)).toThrow(TypeError);
    expect(fold.length).toBe(1);
    expect(fold.digest(BASE)).toBe(before);
    // Deep without a cycle is content like any other.
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200; level += 1) deep = { next: deep };
    expect(digestOf(deep)).toBe(digestOf(JSON.parse(JSON.stringify(deep))));
  });

  it('goes on from any message: a rewrite at message i continues from the state after i - 1', () => {
    const messages: Message[] = ['a', 'b', 'c', 'd'].map((content) => ({ role: 'user', content }));
    const fold = new HistoryFold();
    for (const message of messages) fold.add(message);
    expect(fold.matches(2, { role: 'user', content: 'c' })).toBe(true);
    expect(fold.matches(2, { role: 'user', content: 'x' })).toBe(false);
    fold.truncate(2);
    fold.add({ role: 'user', content: 'x' });
    expect(fold.digest(BASE)).toBe(digestOf(messages[0], messages[1], { role: 'user', content: 'x' }));
    expect(fold.digest(BASE)).not.toBe(fold.digest('fedcba9876543210'));
  });
});
