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
});
