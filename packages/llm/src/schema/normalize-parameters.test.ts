import { describe, expect, it } from 'vitest';
import { normalizeParameters } from './normalize-parameters.js';

describe('normalizeParameters', () => {
  it.each([[undefined], [null], [true], ['schema'], [[{ type: 'object' }]], [{}]])(
    'turns %j into an empty object schema',
    (input) => {
      expect(normalizeParameters(input)).toEqual({ type: 'object', properties: {} });
    },
  );

  it('adds type object when properties or required are present', () => {
    expect(normalizeParameters({ properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    expect(normalizeParameters({ required: ['a'] })).toEqual({ type: 'object', required: ['a'] });
  });

  it('leaves other schemas alone', () => {
    const schema = { type: 'object', properties: {}, description: 'x' };
    expect(normalizeParameters(schema)).toBe(schema);
    expect(normalizeParameters({ anyOf: [{ type: 'object' }] })).toEqual({ anyOf: [{ type: 'object' }] });
  });
});
