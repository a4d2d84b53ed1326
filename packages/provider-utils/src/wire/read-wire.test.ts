import { describe, expect, it } from 'vitest';
import { asArray, asNonEmptyString, asNumber, asRecord, asString } from './read-wire.js';

describe('wire readers', () => {
  it('read only the shape they name and never throw', () => {
    const values: unknown[] = [
      null,
      undefined,
      0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'x',
      [],
      [1],
      {},
      { a: 1 },
    ];
    expect(values.map(asRecord)).toEqual([...values.slice(0, 9).map(() => undefined), {}, { a: 1 }]);
    expect(values.map(asString)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      '',
      'x',
      ...values.slice(7).map(() => undefined),
    ]);
    expect(values.map(asNonEmptyString).filter((value) => value !== undefined)).toEqual(['x']);
    expect(values.map(asNumber).filter((value) => value !== undefined)).toEqual([0]);
    expect(values.map(asArray)).toEqual([[], [], [], [], [], [], [], [], [1], [], []]);
  });
});
