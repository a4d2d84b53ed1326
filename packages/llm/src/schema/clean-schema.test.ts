import { createValidator, type JsonSchema } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanSchema } from './clean-schema.js';
import { schemaAndValue } from './schema-arbitrary.test-support.js';

const declared: JsonSchema = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:example',
  type: 'object',
  additionalProperties: false,
  required: ['format'],
  properties: {
    format: {
      type: 'string',
      minLength: 1,
      pattern: '^[a-z]+$',
      format: 'email',
      description: 'a property named format',
    },
    size: { type: 'integer', minimum: 1, maximum: 10, default: 3, title: 'Size', examples: [2] },
    list: { type: 'array', items: { $ref: '#/$defs/item' }, minItems: 1, uniqueItems: true },
    mode: { const: 'fast' },
    color: { anyOf: [{ const: 'red' }, { const: 'blue' }, { type: 'null' }], description: 'pick one' },
    note: { type: ['string', 'null'] },
    maybe: { anyOf: [{ $ref: '#/$defs/item' }, { type: 'null' }], description: 'nullable item' },
    map: { type: 'object', patternProperties: { '^x': { type: 'string' } }, additionalProperties: { type: 'number' } },
  },
  $defs: {
    item: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false },
  },
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const entry of Object.values(value)) deepFreeze(entry);
    Object.freeze(value);
  }
  return value;
}

describe('cleanSchema', () => {
  it('openai keeps keywords and references as written', () => {
    const result = cleanSchema(declared, 'openai');
    expect(result.$defs).toEqual(declared.$defs);
    expect(result.additionalProperties).toBe(false);
    expect((result.properties as Record<string, JsonSchema>).list?.items).toEqual({ $ref: '#/$defs/item' });
    expect((result.properties as Record<string, JsonSchema>).mode).toEqual({ type: 'string', enum: ['fast'] });
  });

  it('anthropic inlines references and drops the definition tables', () => {
    const result = cleanSchema(declared, 'anthropic');
    expect(result.$defs).toBeUndefined();
    expect(result.additionalProperties).toBe(false);
    const properties = result.properties as Record<string, JsonSchema>;
    expect(properties.list?.items).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      additionalProperties: false,
    });
    expect(properties.format).toMatchObject({ minLength: 1, format: 'email' });
  });

  it('conservative (the default) also drops additionalProperties everywhere', () => {
    const result = cleanSchema(declared);
    expect(result.additionalProperties).toBeUndefined();
    const properties = result.properties as Record<string, JsonSchema>;
    expect(properties.list?.items).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    expect(properties.map).toEqual({ type: 'object', patternProperties: { '^x': { type: 'string' } } });
    expect(properties.color).toEqual({
      type: ['string', 'null'],
      enum: ['red', 'blue', null],
      description: 'pick one',
    });
  });

  it('gemini strips ids, facets, formats and examples and turns null variants into nullable', () => {
    const result = cleanSchema(declared, 'gemini');
    expect(result).not.toHaveProperty('$schema');
    expect(result).not.toHaveProperty('$id');
    expect(result).not.toHaveProperty('$defs');
    expect(result).not.toHaveProperty('additionalProperties');
    expect(result.required).toEqual(['format']);
    expect(result.properties).toEqual({
      format: { type: 'string', description: 'a property named format' },
      size: { type: 'integer', default: 3, title: 'Size' },
      list: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
      mode: { type: 'string', enum: ['fast'] },
      color: { type: 'string', enum: ['red', 'blue'], description: 'pick one', nullable: true },
      note: { type: 'string', nullable: true },
      maybe: { type: 'object', properties: { id: { type: 'string' } }, description: 'nullable item', nullable: true },
      map: { type: 'object' },
    });
  });

  it('gemini splits a multi-type list into anyOf and empties true schemas', () => {
    const result = cleanSchema(
      { type: 'object', properties: { a: { type: ['string', 'integer', 'null'] }, b: true } },
      'gemini',
    );
    expect(result.properties).toEqual({
      a: { anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
      b: {},
    });
  });

  it('breaks reference cycles by widening to {}', () => {
    const result = cleanSchema({
      type: 'object',
      properties: { node: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node', description: 'next node' } } } },
    });
    expect(result.properties).toEqual({
      node: { type: 'object', properties: { next: { description: 'next node' } } },
    });
  });

  it('never narrows: the conservative and anthropic projections accept every valid value', () => {
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        for (const strategy of ['conservative', 'anthropic', 'openai'] as const) {
          expect(createValidator(cleanSchema(schema, strategy)).validate(value).ok).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
