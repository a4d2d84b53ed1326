import { describe, expect, it } from 'vitest';
import { checkSchema, createValidator, MAX_UNEVALUATED_ENTRIES, SchemaCompileFailure } from './create-validator.js';

/** An object schema with `count` number properties named `p<i>_<j>`. */
const branch = (i: number, count: number) => ({
  properties: Object.fromEntries(Array.from({ length: count }, (_, j) => [`p${i}_${j}`, { type: 'number' }])),
});

const caught = (attempt: () => unknown): unknown => {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('compile cost of unevaluated* (allofuneval.mjs, compile2.mjs)', () => {
  it('refuses at definition an unevaluatedProperties that tracks too many entries, with a typed limit', () => {
    // 220 × 9 properties: its compile overflowed the stack at every call; 200 × 9 refused valid values.
    const schema = {
      type: 'object',
      allOf: Array.from({ length: 220 }, (_, i) => branch(i, 9)),
      unevaluatedProperties: false,
    };
    for (const attempt of [() => checkSchema(schema), () => createValidator(structuredClone(schema))]) {
      const error = caught(attempt);
      expect(SchemaCompileFailure.isInstance(error)).toBe(true);
      expect((error as SchemaCompileFailure).limit).toBe('maxUnevaluatedEntries');
      expect((error as SchemaCompileFailure).message).toContain(String(MAX_UNEVALUATED_ENTRIES));
    }
    // The same properties under anyOf, and items under unevaluatedItems, count alike.
    expect(
      caught(() =>
        checkSchema({ anyOf: Array.from({ length: 60 }, (_, i) => branch(i, 9)), unevaluatedProperties: false }),
      ),
    ).toMatchObject({ limit: 'maxUnevaluatedEntries' });
    expect(
      caught(() =>
        checkSchema({
          type: 'array',
          anyOf: Array.from({ length: 60 }, () => ({ prefixItems: new Array(9).fill({ type: 'number' }) })),
          unevaluatedItems: false,
        }),
      ),
    ).toMatchObject({ limit: 'maxUnevaluatedEntries' });
  });

  it('accepts and enforces a schema just within the limit', () => {
    // 50 × (9 + 1) = 500 entries.
    const schema = {
      type: 'object',
      allOf: Array.from({ length: 49 }, (_, i) => branch(i, 9)),
      unevaluatedProperties: false,
    };
    const validator = createValidator(schema);
    expect(validator.validate({ p0_0: 1, p48_8: 2 }).ok).toBe(true);
    expect(validator.validate({ p0_0: 1, extra: 2 })).toEqual({
      ok: false,
      issues: [{ path: '/extra', keyword: 'unevaluatedProperties', message: 'is not allowed' }],
    });
  });

  it('counts each unevaluated keyword down to the next one (nested ones do not add up)', () => {
    // 90 levels (within MAX_SCHEMA_DEPTH), each an allOf of the previous level and five
    // properties, each with its own unevaluatedProperties: every keyword tracks 8 entries.
    let schema: Record<string, unknown> = { type: 'object', properties: { z: true } };
    for (let i = 0; i < 90; i++) schema = { allOf: [schema, branch(i, 5)], unevaluatedProperties: false };
    expect(() => checkSchema(schema)).not.toThrow();
    // Without them below, the top one tracks every level (90 × 7 entries).
    let plain: Record<string, unknown> = { type: 'object', properties: { z: true } };
    for (let i = 0; i < 90; i++) plain = { allOf: [plain, branch(i, 5)] };
    expect(caught(() => checkSchema({ ...plain, unevaluatedProperties: false }))).toMatchObject({
      limit: 'maxUnevaluatedEntries',
    });
  });

  it('keeps a compile failure: a failing schema is never compiled again at each call', () => {
    const schema = { type: 'object', anyOf: Array.from({ length: 120 }, (_, i) => branch(i, 9)) };
    const unevaluated = { ...schema, unevaluatedProperties: false };
    const first = caught(() => createValidator(unevaluated));
    expect(SchemaCompileFailure.isInstance(first)).toBe(true);
    // The same object, then the same JSON in another object: the same failure, not a new compile.
    expect(caught(() => createValidator(unevaluated))).toBe(first);
    expect(caught(() => checkSchema(unevaluated))).toBe(first);
    expect(caught(() => createValidator(structuredClone(unevaluated)))).toBe(first);
  });

  it('refuses a schema past MAX_SCHEMA_NODES (an anyOf of 985 × 9 properties took 8 s to compile)', () => {
    const schema = { type: 'object', anyOf: Array.from({ length: 985 }, (_, i) => branch(i, 9)) };
    expect(caught(() => checkSchema(schema))).toMatchObject({ limit: 'maxSchemaNodes' });
  });
});
