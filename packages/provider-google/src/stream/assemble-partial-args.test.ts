import { describe, expect, it } from 'vitest';
import { PartialArguments } from './assemble-partial-args.js';

describe('PartialArguments', () => {
  it('joins string pieces of one path and places typed values by path', () => {
    const args = new PartialArguments();
    expect(
      args.apply([
        { jsonPath: '$.items[0].name', stringValue: 'Ap', willContinue: true },
        { jsonPath: '$.items[0].name', stringValue: 'ple' },
        { jsonPath: '$.items[0].price', numberValue: 0.5 },
        { jsonPath: '$.items[1].ok', boolValue: true },
        { jsonPath: "$['odd key']", nullValue: null },
      ]),
    ).toBeUndefined();
    expect(args.root).toEqual({ items: [{ name: 'Apple', price: 0.5 }, { ok: true }], 'odd key': null });
  });

  it.each([
    ['a prototype key', [{ jsonPath: '$.__proto__.polluted', stringValue: 'yes' }], /reserved key/],
    ['a constructor path', [{ jsonPath: '$.constructor.prototype.x', boolValue: true }], /reserved key/],
    ['an unreadable path', [{ jsonPath: 'items[0]', stringValue: 'x' }], /unreadable/],
    ['no path', [{ stringValue: 'x' }], /unreadable/],
    [
      'an index into an object',
      [
        { jsonPath: '$.a.b', stringValue: 'x' },
        { jsonPath: '$.a[0]', stringValue: 'y' },
      ],
      /another kind/,
    ],
  ])('refuses %s (the call becomes invalid), polluting nothing', (_name, entries, reason) => {
    const args = new PartialArguments();
    expect(args.apply(entries)).toMatch(reason);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('reads proto3 JSON string forms exactly and joins pieces only onto a string', () => {
    const args = new PartialArguments();
    expect(
      args.apply([
        { jsonPath: '$.n', numberValue: '-0.5e2' },
        { jsonPath: '$.b', boolValue: 'false' },
        { jsonPath: '$.z', nullValue: 'NULL_VALUE' },
        { jsonPath: '$.list[0]', stringValue: 'a' },
        { jsonPath: '$.list[1]', stringValue: 'b' },
        { jsonPath: '$.list[1]', stringValue: 'c' },
      ]),
    ).toBeUndefined();
    expect(args.root).toEqual({ n: -50, b: false, z: null, list: ['a', 'bc'] });
    expect(new PartialArguments().apply([{ jsonPath: '$.x[01]', stringValue: 'a' }])).toMatch(/unreadable/);
    expect(new PartialArguments().apply([{ jsonPath: `$${'.a'.repeat(65)}`, stringValue: 'a' }])).toMatch(/unreadable/);
    expect(new PartialArguments().apply([{ jsonPath: '$.x[4097]', stringValue: 'a' }])).toMatch(/unreadable/);
    expect(new PartialArguments().apply({ jsonPath: '$.x' })).toMatch(/not a list/);
    expect(
      new PartialArguments().apply([
        { jsonPath: '$.n', numberValue: 5 },
        { jsonPath: '$.n', stringValue: 'five' },
      ]),
    ).toMatch(/written twice/);
    expect(
      new PartialArguments().apply([
        { jsonPath: '$.s', stringValue: 'a' },
        { jsonPath: '$.s', numberValue: 1 },
      ]),
    ).toMatch(/written twice/);
    const mixed = new PartialArguments();
    expect(
      mixed.apply([
        { jsonPath: '$.s', stringValue: 'a' },
        { jsonPath: '$.s.t', stringValue: 'b' },
      ]),
    ).toMatch(/overlaps a path already set/);
  });

  it('refuses a path that is a prefix of, or extends, a path already set (in either order)', () => {
    // a value at a path would replace the container earlier sub-path entries built: `$.path[0]='/tmp/a'` then `$.path='/'`
    const replaced = new PartialArguments();
    expect(
      replaced.apply([
        { jsonPath: '$.path[0]', stringValue: '/tmp/a' },
        { jsonPath: '$.path', stringValue: '/' },
      ]),
    ).toMatch(/overlaps a path already set/);
    expect(
      new PartialArguments().apply([
        { jsonPath: '$.filter.x', stringValue: 'a' },
        { jsonPath: '$.filter', nullValue: null },
      ]),
    ).toMatch(/overlaps/);
    expect(
      new PartialArguments().apply([
        { jsonPath: '$.filter', nullValue: null },
        { jsonPath: '$.filter.x', stringValue: 'a' },
      ]),
    ).toMatch(/overlaps/);
    // siblings under one container are no conflict
    const siblings = new PartialArguments();
    expect(
      siblings.apply([
        { jsonPath: '$.a.b', stringValue: 'x' },
        { jsonPath: '$.a.c[0]', numberValue: 1 },
        { jsonPath: '$.a.c[1]', numberValue: 2 },
      ]),
    ).toBeUndefined();
    expect(siblings.root).toEqual({ a: { b: 'x', c: [1, 2] } });
  });
});
