import { describe, expect, it } from 'vitest';
import { pformatParameterType } from './pformat-parameter-type.js';

describe('pformatParameterType', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: 'integer' }, 'integer'],
    [{ type: 'number' }, 'number'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'array', items: { type: 'string' } }, 'array'],
    [{ type: 'object' }, 'object'],
    [{ type: ['integer', 'null'] }, 'integer'],
    [{ type: ['string', 'integer'] }, 'any'],
    [{ type: 'date' }, 'any'],
    [{ enum: ['a', 'b'] }, 'string'],
    [{ enum: [1, 2] }, 'integer'],
    [{ enum: [1, 2.5] }, 'number'],
    [{ enum: ['a', 1] }, 'any'],
    [{ const: true }, 'boolean'],
    [{ anyOf: [{ type: 'number' }, { type: 'null' }] }, 'number'],
    [{ oneOf: [{ type: 'number' }, { type: 'string' }] }, 'any'],
    [{ allOf: [{ type: 'integer' }, { minimum: 1 }] }, 'integer'],
    [{ properties: { a: {} } }, 'object'],
    [{ items: {} }, 'array'],
    [{}, 'any'],
    [true, 'any'],
    [undefined, 'any'],
  ])('reads %j as %s', (schema, expected) => {
    expect(pformatParameterType(schema)).toBe(expected);
  });
});
