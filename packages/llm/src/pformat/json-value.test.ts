import { describe, expect, it } from 'vitest';
import { jsonEqual, setOwn } from './json-value.js';

describe('jsonEqual', () => {
  it('compares nested values, ignoring key order', () => {
    expect(jsonEqual({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });

  it('tells -0 from 0, as a round trip must', () => {
    expect(jsonEqual(-0, 0)).toBe(false);
  });
});

describe('setOwn', () => {
  it('stores __proto__ as data without touching the prototype', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__']);
  });
});
