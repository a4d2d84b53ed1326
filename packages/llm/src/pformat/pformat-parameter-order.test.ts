import { describe, expect, it } from 'vitest';
import { pformatParameterOrder } from './pformat-parameter-order.js';

describe('pformatParameterOrder', () => {
  it('puts required names first in declared order, then the rest alphabetically', () => {
    const schema = {
      type: 'object',
      properties: { zeta: {}, limit: {}, query: {}, alpha: {}, beta: {} },
      required: ['query', 'beta'],
    };
    expect(pformatParameterOrder(schema)).toEqual(['query', 'beta', 'alpha', 'limit', 'zeta']);
  });

  it('is not plain alphabetical order', () => {
    const schema = { properties: { a: {}, b: {} }, required: ['b'] };
    expect(pformatParameterOrder(schema)).toEqual(['b', 'a']);
  });

  it('sorts by code unit, not locale (uppercase before lowercase)', () => {
    expect(pformatParameterOrder({ properties: { b: {}, B: {}, a: {}, _x: {} } })).toEqual(['B', '_x', 'a', 'b']);
  });

  it('keeps a required name without a property, and skips duplicates and non-strings', () => {
    const schema = { properties: { a: {} }, required: ['ghost', 'a', 'ghost', 7] };
    expect(pformatParameterOrder(schema)).toEqual(['ghost', 'a']);
  });

  it('gives no parameters for schemas without properties', () => {
    expect(pformatParameterOrder({})).toEqual([]);
    expect(pformatParameterOrder({ type: 'string' })).toEqual([]);
    expect(pformatParameterOrder({ properties: [] })).toEqual([]);
  });
});
