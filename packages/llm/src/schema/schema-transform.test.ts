import { describe, expect, it } from 'vitest';
import { applySchemaTransform } from './schema-transform.js';

const schema = {
  type: 'object',
  additionalProperties: false,
  properties: { a: { $ref: '#/$defs/a' }, b: { type: 'string', format: 'email' } },
  $defs: { a: { type: 'object', properties: { x: { type: 'integer' } }, additionalProperties: false } },
};

describe('applySchemaTransform', () => {
  it('inline_refs keeps the tables; strip_defs drops them', () => {
    const inlined = applySchemaTransform(schema, { type: 'inline_refs' });
    expect((inlined.properties as Record<string, unknown>).a).toEqual(schema.$defs.a);
    expect(inlined.$defs).toEqual(schema.$defs);
    const stripped = applySchemaTransform(schema, { type: 'strip_defs' });
    expect(stripped.$defs).toBeUndefined();
    expect((stripped.properties as Record<string, unknown>).a).toEqual(schema.$defs.a);
  });

  it('no_additional_properties removes the keyword at every level', () => {
    const result = applySchemaTransform(schema, { type: 'no_additional_properties' });
    expect(JSON.stringify(result)).not.toContain('additionalProperties');
  });

  it('gemini_compat and openai_strict delegate; chain applies in order', () => {
    expect(applySchemaTransform(schema, { type: 'gemini_compat' }).properties).toEqual({
      a: { type: 'object', properties: { x: { type: 'integer' } } },
      b: { type: 'string' },
    });
    expect(applySchemaTransform(schema, { type: 'openai_strict' }).required).toEqual(['a', 'b']);
    const chained = applySchemaTransform(schema, {
      type: 'chain',
      transforms: [{ type: 'strip_defs' }, { type: 'openai_strict' }],
    });
    expect(chained.properties).toEqual({
      a: {
        anyOf: [
          {
            type: 'object',
            properties: { x: { type: ['integer', 'null'] } },
            required: ['x'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
      b: { type: ['string', 'null'], format: 'email' },
    });
  });
});
