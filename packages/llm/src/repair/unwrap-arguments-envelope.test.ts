import type { JsonSchema } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { unwrapArgumentsEnvelope } from './unwrap-arguments-envelope.js';

const citySchema: JsonSchema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

describe('unwrapArgumentsEnvelope', () => {
  it('unwraps one level under each envelope key when the inner object validates', () => {
    for (const key of ['properties', 'arguments', 'args', 'parameters', 'params', 'param', 'input']) {
      expect(unwrapArgumentsEnvelope({ [key]: { city: 'Paris' } }, citySchema), key).toEqual({ city: 'Paris' });
    }
  });

  it('unwraps a schema echo', () => {
    const echo = { type: 'object', required: ['city'], properties: { city: 'Paris' } };
    expect(unwrapArgumentsEnvelope(echo, citySchema)).toEqual({ city: 'Paris' });
    const mixed = { properties: {}, required: [], arguments: { city: 'Paris' } };
    expect(unwrapArgumentsEnvelope(mixed, citySchema)).toEqual({ city: 'Paris' });
  });

  it('does not unwrap an inner object that does not validate', () => {
    expect(unwrapArgumentsEnvelope({ param: { town: 'Paris' } }, citySchema)).toBeUndefined();
    expect(unwrapArgumentsEnvelope({ arguments: { city: 7 } }, citySchema)).toBeUndefined();
    expect(unwrapArgumentsEnvelope({ arguments: '{"city":"Paris"}' }, citySchema)).toBeUndefined();
  });

  it('never treats a declared parameter as an envelope', () => {
    const schema: JsonSchema = { type: 'object', properties: { input: { type: 'object' } } };
    expect(unwrapArgumentsEnvelope({ input: { city: 'Paris' } }, schema, () => true)).toBeUndefined();
  });

  it('uses the given validity check', () => {
    const seen: unknown[] = [];
    const isValid = (value: Record<string, unknown>) => {
      seen.push(value);
      return 'town' in value;
    };
    expect(unwrapArgumentsEnvelope({ args: { town: 'Oslo' } }, citySchema, isValid)).toEqual({ town: 'Oslo' });
    expect(seen).toEqual([{ town: 'Oslo' }]);
  });

  it('returns undefined for non-objects and a schema that does not compile', () => {
    expect(unwrapArgumentsEnvelope('{"arguments":{}}', citySchema)).toBeUndefined();
    expect(unwrapArgumentsEnvelope(null, citySchema)).toBeUndefined();
    const broken: JsonSchema = { $ref: '#/definitions/missing' };
    expect(unwrapArgumentsEnvelope({ arguments: { city: 'Paris' } }, broken)).toBeUndefined();
  });
});
