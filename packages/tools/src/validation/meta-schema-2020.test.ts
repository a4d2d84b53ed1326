import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script, without types
import { metaValidatorPath, metaValidatorSource } from '../../scripts/generate-meta-validator.mjs';
import { checkSchema, SchemaCompileFailure } from './create-validator.js';

describe('the precompiled 2020-12 meta-schema validator', () => {
  it('is what the generator makes with the installed ajv (run `pnpm --filter @tiny/tools generate:meta` after an upgrade)', () => {
    expect(readFileSync(metaValidatorPath as string, 'utf8')).toBe((metaValidatorSource as () => string)());
  });

  it('accepts and refuses the same schemas as ajv compiling the meta-schema, with the same messages', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const schemas: Record<string, unknown>[] = [
      { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'], additionalProperties: false },
      { type: ['string', 'null'], enum: ['a', null] },
      { $defs: { tag: { type: 'object' } }, items: { $ref: '#/$defs/tag' } },
      { type: 'object', required: 'a' },
      { type: 'object', properties: { x: { type: 5 } } },
      { properties: { deep: { properties: { deeper: { additionalProperties: { minimum: 'x' } } } } } },
      { prefixItems: [{ const: 1 }, { type: 'nope' }] },
      { if: { type: 'string' }, else: { maxLength: 'x' } },
      { dependentSchemas: { a: { required: [1] } } },
      { unevaluatedProperties: { type: 7 } },
      { $schema: 'https://json-schema.org/draft/2020-12/schema', anyOf: [] },
    ];
    for (const schema of schemas) {
      const expected = ajv.validateSchema(schema) ? undefined : ajv.errorsText(ajv.errors, { dataVar: 'schema' });
      let actual: string | undefined;
      try {
        checkSchema(schema);
      } catch (error) {
        expect(SchemaCompileFailure.isInstance(error)).toBe(true);
        actual = (error as Error).message;
      }
      expect(actual, JSON.stringify(schema)).toBe(expected);
    }
  });

  it('leaves other dialects to ajv: a draft-07 schema is checked against draft-07, an unknown $schema is refused', () => {
    expect(() =>
      checkSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: 'a' }),
    ).toThrow(/schema\/required must be array/);
    expect(() => checkSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' })).toThrow(
      SchemaCompileFailure,
    );
  });
});
