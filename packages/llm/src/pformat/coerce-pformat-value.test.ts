import { describe, expect, it } from 'vitest';
import { coercePformatValue } from './coerce-pformat-value.js';

describe('coercePformatValue', () => {
  it.each([
    ['.5', 0.5],
    ['5.', 5],
    ['-0', -0],
    ['2E+3', 2000],
    ['-', '-'],
    ['.', '.'],
    ['e5', 'e5'],
    ['5e', '5e'],
    ['1_000', '1_000'],
    ['+5', '+5'],
    ['Infinity', 'Infinity'],
  ])('reads number text %j as %j', (text, expected) => {
    expect(coercePformatValue(text, 'number')).toBe(expected);
  });

  it('keeps the untrimmed text when a conversion fails', () => {
    expect(coercePformatValue(' 5.0 ', 'integer')).toBe(' 5.0 ');
    expect(coercePformatValue(' 7 ', 'integer')).toBe(7);
  });

  it('reads null only for the null type', () => {
    expect(coercePformatValue('null', 'null')).toBeNull();
    expect(coercePformatValue('null', 'string')).toBe('null');
    expect(coercePformatValue('null', 'object')).toBe('null');
  });

  it('keeps text verbatim for parameters of several types', () => {
    expect(coercePformatValue(' 5 ', 'any')).toBe(' 5 ');
  });
});
