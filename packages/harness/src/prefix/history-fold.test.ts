import * as vm from 'node:vm';
import type { Message } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sealMessage } from '../agent/sealed-history.js';
import { FIXED_TAGS, HistoryFold, headerState } from './history-fold.js';

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

  it('reads a sealed message (a frozen JSON copy) to the same state as any other value', () => {
    const anything = fc.anything({
      withBoxedValues: true,
      withDate: true,
      withNullPrototype: true,
      withSparseArray: true,
    });
    const message = fc.record({
      role: fc.constantFrom('user', 'assistant', 'tool'),
      content: anything,
      extra: anything,
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 3 }), (messages) => {
        const sealed = messages.map((each) => sealMessage(each as unknown as Message));
        const plain = new HistoryFold();
        const fast = new HistoryFold();
        for (const each of sealed) {
          plain.add(each);
          fast.add(each, true);
        }
        expect(fast.digest(BASE)).toBe(plain.digest(BASE));
        // And as JSON writes the caller's message: the copy hashes as the original does.
        expect(fast.digest(BASE)).toBe(digestOf(...messages));
      }),
      { numRuns: 1000 },
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
  it('calls toJSON on a function or a class with one, as JSON.stringify does on any object', () => {
    const secret = Object.assign(() => 1, { toJSON: () => 'secret' });
    const other = Object.assign(() => 1, { toJSON: () => 'other' });
    // biome-ignore lint/complexity/noStaticOnlyClass: the case is a class JSON writes by its static toJSON.
    class Static {
      static toJSON() {
        return 'K';
      }
    }
    expect(digestOf({ a: secret })).toBe(digestOf({ a: 'secret' }));
    expect(digestOf({ a: secret })).not.toBe(digestOf({ a: other }));
    expect(digestOf([secret])).toBe(digestOf(['secret']));
    expect(digestOf({ k: Static })).toBe(digestOf({ k: 'K' }));
    // A toJSON giving a function again: nothing written, as for a plain function.
    expect(digestOf({ a: Object.assign(() => 1, { toJSON: () => () => 2 }), b: 1 })).toBe(digestOf({ b: 1 }));
  });

  // Cases from the spec's SerializeJSONProperty step 4 (internal slots, not prototypes), each
  // checked against JSON.stringify itself.
  it('unwraps boxed values by their internal slot, whatever their realm or prototype', () => {
    const boxed = (value: object) => Object.setPrototypeOf(value, Object.prototype) as object;
    const cases: [string, unknown][] = [
      ['other-realm Number', vm.runInNewContext('new Number(5)')],
      ['other-realm String', vm.runInNewContext('new String("a")')],
      ['other-realm Boolean', vm.runInNewContext('new Boolean(false)')],
      ['Number.prototype without the slot', Object.create(Number.prototype)],
      ['String.prototype without the slot', Object.create(String.prototype)],
      ['Boolean.prototype without the slot', Object.create(Boolean.prototype)],
      ['Number with Object.prototype', boxed(new Number(7))],
      ['String with Object.prototype', boxed(new String('s'))],
      ['Number with Array.prototype', Object.setPrototypeOf(new Number(7), Array.prototype)],
      ['Number without prototype', Object.setPrototypeOf(new Number(7), null)],
      ['Number with its own valueOf', Object.assign(new Number(1), { valueOf: () => 9 })],
      ['String with its own toString', Object.assign(new String('a'), { toString: () => 'b' })],
      ['Boolean with its own valueOf', Object.assign(new Boolean(false), { valueOf: () => true })],
      ['Symbol wrapper', Object(Symbol('s'))],
    ];
    for (const [name, value] of cases) {
      let json: string;
      try {
        json = JSON.stringify([value]);
      } catch (error) {
        // No prototype: ToNumber finds no valueOf or toString and throws, in both.
        expect(() => digestOf([value]), name).toThrow((error as Error).constructor as typeof Error);
        continue;
      }
      expect(digestOf([value]), name).toBe(digestOf(JSON.parse(json)));
    }
    expect(digestOf([vm.runInNewContext('new Number(5)')])).not.toBe(digestOf([vm.runInNewContext('new Number(6)')]));
    expect(() => digestOf([vm.runInNewContext('Object(1n)')])).toThrow(TypeError);
  });

  it('tells a message JSON writes nothing for from one it writes as null', () => {
    expect(JSON.stringify({ toJSON: () => undefined })).toBeUndefined();
    expect(digestOf({ role: 'user', toJSON: () => undefined })).not.toBe(
      digestOf({ role: 'user', toJSON: () => null }),
    );
    expect(digestOf({ role: 'user', toJSON: () => undefined })).toBe(digestOf(undefined));
    // Inside a message JSON writes both the same way as an element, differently as a member.
    const nothing = { toJSON: () => undefined };
    expect(digestOf([nothing])).toBe(digestOf([null]));
    expect(digestOf({ a: nothing })).toBe(digestOf({}));
    expect(digestOf({ a: nothing })).not.toBe(digestOf({ a: null }));
  });

  it('gives strings and arrays headers no other tag shares, for any length', () => {
    const stringLengths = [0, 1, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1, 0x12000000, 0x12000001, 2 ** 29 - 24];
    const arrayLengths = [0, 1, 2 ** 24 - 1, 2 ** 24, 0x0c455347, 0x0f554d00, 0x12000000, 0x12000001, 2 ** 32 - 1];
    const seen = new Map<string, string>();
    const note = (name: string, state: readonly [number, number]) => {
      const key = state.join(',');
      expect(seen.get(key), name).toBeUndefined();
      seen.set(key, name);
    };
    for (const length of stringLengths) note(`string ${length}`, headerState('string', length));
    for (const length of arrayLengths) note(`array ${length}`, headerState('array', length));
    for (const tag of FIXED_TAGS) note(`tag ${tag}`, headerState(tag));
    // What the old encoding made equal: a string of 0x12000001 units and an array of one element.
    expect(headerState('string', 0x12000001)).not.toEqual(headerState('array', 1));
  });

  it('hashes a string of 2^24 units and more by its content and length', () => {
    const long = 'a'.repeat(2 ** 24);
    expect(digestOf(long)).not.toBe(digestOf(`${long}a`));
    expect(digestOf(long)).not.toBe(digestOf([long]));
    expect(digestOf(long)).toBe(digestOf('a'.repeat(2 ** 24)));
  });
  it('hashes exotic leaves (callables with toJSON, wrappers of any realm or prototype) as JSON writes them', () => {
    const otherRealm = (source: string): unknown => vm.runInNewContext(source);
    const leaf: fc.Arbitrary<unknown> = fc.oneof(
      fc.string({ maxLength: 3 }).map((text) => Object.assign(() => 0, { toJSON: () => text })),
      fc.constantFrom(undefined, null, 'x').map((out) => ({ toJSON: () => out })),
      fc.integer({ min: -3, max: 3 }).map((n) => otherRealm(`new Number(${n})`)),
      fc.boolean().map((b) => otherRealm(`new Boolean(${b})`)),
      fc.string({ maxLength: 3 }).map((text) => otherRealm(`new String(${JSON.stringify(text)})`)),
      fc.integer({ min: -3, max: 3 }).map((n) => Object.setPrototypeOf(new Number(n), Object.prototype) as unknown),
      fc.boolean().map((b) => Object.assign(new Boolean(b), { valueOf: () => !b })),
      fc.constant(Object.create(Number.prototype) as unknown),
      fc.integer({ min: 0, max: 2 }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 2 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, value, (left, right) => {
        const [jsonLeft, jsonRight] = [JSON.stringify(left), JSON.stringify(right)];
        expect(digestOf(left) === digestOf(right)).toBe(jsonLeft === jsonRight);
        if (jsonLeft !== undefined) expect(digestOf(left)).toBe(digestOf(JSON.parse(jsonLeft)));
      }),
      { numRuns: 500 },
    );
  });
});
