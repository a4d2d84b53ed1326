import { describe, expect, it } from 'vitest';
import { acceptsObject } from './accepts-object.js';

describe('acceptsObject', () => {
  it('reads every spelling of an object schema', () => {
    expect(acceptsObject({ type: 'object' })).toBe(true);
    expect(acceptsObject({ type: ['object', 'null'] })).toBe(true);
    expect(acceptsObject({ properties: {} })).toBe(true);
    expect(acceptsObject({ required: ['a'] })).toBe(true);
    expect(acceptsObject({ anyOf: [{ type: 'string' }, { type: 'object' }] })).toBe(true);
    expect(acceptsObject({ allOf: [{ properties: { a: {} } }] })).toBe(true);
  });

  it('rejects non-object and unconstrained schemas', () => {
    expect(acceptsObject({ type: 'string' })).toBe(false);
    expect(acceptsObject({ type: ['array', 'null'] })).toBe(false);
    expect(acceptsObject({ type: 'string', properties: {} })).toBe(false);
    expect(acceptsObject({})).toBe(false);
    expect(acceptsObject({ oneOf: [{ type: 'string' }, { type: 'number' }] })).toBe(false);
  });
});
