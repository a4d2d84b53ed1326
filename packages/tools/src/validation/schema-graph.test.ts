import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkSchema,
  createValidator,
  MAX_SCHEMA_DEPTH,
  MAX_UNEVALUATED_ENTRIES,
  SchemaCompileFailure,
} from './create-validator.js';

const caught = (attempt: () => unknown): unknown => {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  return undefined;
};

const props = (i: number, count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, j) => [`p${i}_${j}`, { type: 'integer' }]));

describe('$dynamicRef and $dynamicAnchor (validate-r4 dynref.mjs)', () => {
  it('are refused at definition with a typed error naming the keyword (ajv resolves them against the root)', () => {
    // Plain Ajv2020 accepts `{l: [{}]}` here: it checks the items against the root schema.
    const anchored = {
      type: 'object',
      properties: { l: { type: 'array', items: { $dynamicRef: '#items' } } },
      $defs: { foo: { $dynamicAnchor: 'items', type: 'string' } },
    };
    const error = caught(() => checkSchema(anchored));
    expect(SchemaCompileFailure.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ unsupportedKeyword: '$dynamicAnchor' });
    const pointer = {
      type: 'object',
      $defs: { s: { type: 'string' } },
      properties: { t: { $dynamicRef: '#/$defs/s' } },
    };
    expect(caught(() => createValidator(pointer))).toMatchObject({ unsupportedKeyword: '$dynamicRef' });
  });

  it('refuses every JSON-Schema-Test-Suite dynamicRef group, never answering wrong', () => {
    // json-schema-org/JSON-Schema-Test-Suite tests/draft2020-12/dynamicRef.json (MIT, unchanged),
    // the commit named in json-schema-suite.test.ts.
    const groups = JSON.parse(
      readFileSync(new URL('./__fixtures__/json-schema-test-suite/dynamicRef.json', import.meta.url), 'utf8'),
    ) as { description: string; schema: object; tests: { data: unknown; valid: boolean }[] }[];
    expect(groups.length).toBeGreaterThan(10);
    let refusedForKeyword = 0;
    for (const group of groups) {
      const error = caught(() => createValidator(group.schema as Record<string, unknown>));
      if (error === undefined) {
        const validator = createValidator(group.schema as Record<string, unknown>);
        for (const test of group.tests) expect(validator.validate(test.data).ok, group.description).toBe(test.valid);
      } else {
        // Refused with a typed error: the dynamic keyword, or (one group) a remote `$ref` first.
        expect(SchemaCompileFailure.isInstance(error), group.description).toBe(true);
        if ((error as SchemaCompileFailure).unsupportedKeyword !== undefined) refusedForKeyword += 1;
      }
    }
    expect(refusedForKeyword).toBeGreaterThanOrEqual(groups.length - 1);
  });

  it('leave data alone: the words under an annotation or in enum are not keywords', () => {
    const schema = {
      type: 'object',
      properties: { a: { enum: [{ $dynamicRef: '#x' }] } },
      'x-doc': { $dynamicAnchor: 'x' },
    };
    expect(createValidator(schema).validate({ a: { $dynamicRef: '#x' } }).ok).toBe(true);
  });
});

describe('maxUnevaluatedEntries follows $ref (validate-r4 uneval.mjs)', () => {
  it('refuses at definition definitions chained by $ref under unevaluatedProperties: false', () => {
    const $defs: Record<string, unknown> = {};
    // 40 links of 13 properties: 520 entries, within MAX_SCHEMA_DEPTH, so the entries are what
    // refuse it (the tester's 200 links of 9 took 4 s, then a wrong maxDepth issue).
    for (let i = 0; i < 40; i++)
      $defs[`d${i}`] =
        i + 1 < 40 ? { properties: props(i, 13), $ref: `#/$defs/d${i + 1}` } : { properties: props(i, 13) };
    const error = caught(() =>
      checkSchema({ type: 'object', $ref: '#/$defs/d0', unevaluatedProperties: false, $defs }),
    );
    expect(error).toMatchObject({ limit: 'maxUnevaluatedEntries' });
  });

  it('counts an allOf of references to many definitions, and a shared target at each use', () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) $defs[`d${i}`] = { properties: props(i, 9) };
    const many = {
      type: 'object',
      allOf: Object.keys($defs).map((name) => ({ $ref: `#/$defs/${name}` })),
      unevaluatedProperties: false,
      $defs,
    };
    expect(caught(() => checkSchema(many))).toMatchObject({ limit: 'maxUnevaluatedEntries' });
    // One definition of 9 named 60 times: ajv merges its evaluations at each of them.
    const shared = {
      type: 'object',
      allOf: Array.from({ length: 60 }, () => ({ $ref: '#/$defs/d0' })),
      unevaluatedProperties: false,
      $defs: { d0: { properties: props(0, 9) } },
    };
    expect(caught(() => checkSchema(shared))).toMatchObject({ limit: 'maxUnevaluatedEntries' });
  });

  it('counts a cycle of references once and still validates exactly within the limit', () => {
    const schema = {
      type: 'object',
      $ref: '#/$defs/node',
      unevaluatedProperties: false,
      $defs: {
        node: {
          properties: { name: { type: 'string' }, next: { $ref: '#/$defs/node' } },
          allOf: [{ $ref: '#/$defs/node' }],
        },
      },
    };
    expect(() => checkSchema(schema)).not.toThrow();
    const small: Record<string, unknown> = {
      type: 'object',
      $ref: '#/$defs/d0',
      unevaluatedProperties: false,
      $defs: {},
    };
    const defs = small.$defs as Record<string, unknown>;
    for (let i = 0; i < 10; i++)
      defs[`d${i}`] = i + 1 < 10 ? { properties: props(i, 9), $ref: `#/$defs/d${i + 1}` } : { properties: props(i, 9) };
    const validator = createValidator(small);
    expect(validator.validate({ p0_0: 1, p9_8: 2 }).ok).toBe(true);
    const extra = validator.validate({ p0_0: 1, zzz: 1 });
    expect(extra.ok ? [] : extra.issues.map((issue) => issue.keyword)).toEqual(['unevaluatedProperties']);
    expect(MAX_UNEVALUATED_ENTRIES).toBe(500);
  });
});

describe('maxSchemaDepth (validate-r4 refchain-tool.mjs)', () => {
  const chain = (links: number) => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < links; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    $defs[`d${links}`] = { type: 'integer' };
    return { type: 'object', properties: { a: { $ref: '#/$defs/d0' } }, $defs };
  };
  /** Runs `attempt` under `frames` extra stack frames (a deep caller). */
  const underFrames = <T>(frames: number, attempt: () => T): T => {
    const deep = (n: number): T => (n > 0 ? deep(n - 1) : attempt());
    return deep(frames);
  };

  it('refuses a $ref chain past the limit at definition with a typed limit, not a stack overflow', () => {
    for (const links of [60, 500, 2000]) {
      const error = caught(() => checkSchema(chain(links)));
      expect(SchemaCompileFailure.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ limit: 'maxSchemaDepth' });
    }
  });

  it('refuses subschemas nested past the limit without any $ref', () => {
    let items: Record<string, unknown> = { type: 'integer' };
    for (let i = 0; i < MAX_SCHEMA_DEPTH + 1; i++) items = { type: 'array', items };
    expect(caught(() => checkSchema({ type: 'object', properties: { a: items } }))).toMatchObject({
      limit: 'maxSchemaDepth',
    });
  });

  it('validates exactly just within the limit under 3,000 frames of a caller', () => {
    // 48 links: 1 + 2 × 49 = 99 levels.
    const schema = chain(48);
    const [valid, invalid] = underFrames(3000, () => {
      const validator = createValidator(schema);
      return [validator.validate({ a: 5 }), validator.validate({ a: 'x' })];
    });
    expect(valid).toEqual({ ok: true, value: { a: 5 } });
    expect(invalid?.ok === false ? invalid.issues.map((issue) => issue.keyword) : []).toEqual(['type']);
    // 32 levels of arrays, each reached through a $ref (99 levels).
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 32; i++) $defs[`d${i}`] = { type: 'array', items: { $ref: `#/$defs/d${i + 1}` } };
    $defs.d32 = { type: 'integer' };
    let value: unknown = 5;
    for (let i = 0; i < 32; i++) value = [value];
    const arrays = { type: 'object', properties: { a: { $ref: '#/$defs/d0' } }, $defs };
    expect(underFrames(3000, () => createValidator(arrays).validate({ a: value })).ok).toBe(true);
  });

  it('does not count recursion: a recursive schema stays within the limit', () => {
    const tree = {
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#' } } },
    };
    expect(() => checkSchema(tree)).not.toThrow();
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) value = { children: [value] };
    expect(createValidator(tree).validate(value).ok).toBe(true);
  });
});

describe('formats live in schema positions only (validate-r4 misc.mjs)', () => {
  it('accepts `format` keys inside annotations (OpenAPI example, x-* extensions)', () => {
    const example = {
      type: 'object',
      properties: { format: { enum: ['pdf', 'docx'] } },
      example: { format: 'pdf' },
    };
    expect(createValidator(example).validate({ format: 'pdf' }).ok).toBe(true);
    const extension = { type: 'object', properties: { a: { type: 'string', 'x-ui': { format: 'textarea' } } } };
    expect(createValidator(extension).validate({ a: 'x' }).ok).toBe(true);
  });

  it('still refuses an unknown format in every subschema position, and one a $ref reaches under an annotation', () => {
    for (const schema of [
      { type: 'object', propertyNames: { format: 'zzz' } },
      { type: 'object', properties: { a: { not: { format: 'zzz' } } } },
      { type: 'object', properties: { a: { $ref: '#/x-defs/s' } }, 'x-defs': { s: { type: 'string', format: 'zzz' } } },
    ])
      expect(caught(() => checkSchema(schema))).toMatchObject({ format: 'zzz' });
  });

  it('checks patterns in subschemas only: one under an annotation is data', () => {
    expect(() =>
      checkSchema({ type: 'object', 'x-ui': { pattern: '(a' }, example: { pattern: '(?<=a)b' } }),
    ).not.toThrow();
    expect(
      SchemaCompileFailure.isInstance(
        caught(() => checkSchema({ type: 'object', properties: { a: { pattern: '(?<=a)b' } } })),
      ),
    ).toBe(true);
    const viaRef = {
      type: 'object',
      properties: { a: { $ref: '#/x-defs/s' } },
      'x-defs': { s: { pattern: '(?<=a)b' } },
    };
    expect(SchemaCompileFailure.isInstance(caught(() => checkSchema(viaRef)))).toBe(true);
  });
});
