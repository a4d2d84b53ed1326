import { describe, expect, it } from 'vitest';
import { createValidator } from './create-validator.js';
import { isDecimalMultiple } from './multiple-of.js';

describe('isDecimalMultiple', () => {
  it('accepts the decimal multiples binary division gets wrong (multipleof.mjs)', () => {
    // 19.99 / 0.01 is 1998.9999999999998 in floating point; 0.3 / 0.1 is 2.9999999999999996.
    for (const [value, divisor] of [
      [19.99, 0.01],
      [0.07, 0.01],
      [4.35, 0.01],
      [0.3, 0.1],
      [1.1, 0.1],
      [0.035, 0.001],
      [7e-8, 1e-8],
      [-4.5, 1.5],
      [0, 0.01],
      [12391239123, 1e-8],
      [1e21, 0.5],
    ] as const)
      expect(isDecimalMultiple(value, divisor), `${value} of ${divisor}`).toBe(true);
  });

  it('refuses real non-multiples, however close', () => {
    for (const [value, divisor] of [
      [0.015, 0.01],
      [19.991, 0.01],
      [0.00751, 0.0001],
      [35, 1.5],
      [1.0000000001, 1],
      [1e308, 0.123456789],
      [7, 2],
      [2 ** 53 + 2, 3],
    ] as const)
      expect(isDecimalMultiple(value, divisor), `${value} of ${divisor}`).toBe(false);
  });
});

describe('createValidator on multipleOf', () => {
  it('accepts 19.99 as a multiple of 0.01 and refuses 19.995 with ajv issue', () => {
    const validator = createValidator({ type: 'number', multipleOf: 0.01 });
    expect(validator.validate(19.99).ok).toBe(true);
    expect(validator.test(19.99)).toBe(true);
    expect(validator.validate(19.995)).toEqual({
      ok: false,
      issues: [{ path: '', keyword: 'multipleOf', message: 'must be multiple of 0.01' }],
    });
    expect(validator.test(19.995)).toBe(false);
  });

  it('applies to integers and leaves other types alone (draft-07 too)', () => {
    const validator = createValidator({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: ['integer', 'string'],
      multipleOf: 0.5,
    });
    expect(validator.validate(3).ok).toBe(true);
    expect(validator.validate('x').ok).toBe(true);
    const prices = createValidator({ type: 'array', items: { type: 'number', multipleOf: 0.05 } });
    const result = prices.validate([0.15, 0.3, 0.33]);
    expect(result.ok === false && result.issues.map((issue) => issue.path)).toEqual(['/2']);
  });
});

describe('isDecimalMultiple past 2^53', () => {
  it('decides integers beyond the safe range by the decimal JSON wrote, not the double (validate-r4 multipleof.mjs)', () => {
    // The double nearest 1e23 is 99999999999999991611392 (not a multiple of 10); JSON wrote 1e23.
    for (const [value, divisor] of [
      [1e23, 10],
      [1e23, 1000],
      [1e23, 1e22],
      [5e22, 1000],
      [1e25, 100],
      [123456789012345680000, 10],
      [3e24, 3],
    ] as const)
      expect(isDecimalMultiple(value, divisor), `${value} of ${divisor}`).toBe(true);
    // 1e300 is 1 followed by 300 zeros: not a multiple of 3 (its double is).
    for (const [value, divisor] of [
      [1e300, 3],
      [1e300, 7],
      [1e21, 7],
    ] as const)
      expect(isDecimalMultiple(value, divisor), `${value} of ${divisor}`).toBe(false);
    const validator = createValidator({ type: 'object', properties: { n: { type: 'integer', multipleOf: 10 } } });
    expect(validator.validate(JSON.parse('{"n": 1e23}')).ok).toBe(true);
    const three = createValidator({ type: 'object', properties: { n: { multipleOf: 3 } } });
    const refused = three.validate(JSON.parse('{"n": 1e300}'));
    expect(refused.ok ? [] : refused.issues.map((issue) => issue.keyword)).toEqual(['multipleOf']);
  });
});
