import { describe, expect, it } from 'vitest';
import { checkSchema, createValidator, SchemaCompileFailure } from './create-validator.js';
import { formatValidationIssues } from './validation-issue.js';

const weather = {
  type: 'object',
  required: ['city'],
  additionalProperties: false,
  properties: {
    city: { type: 'string' },
    days: { type: 'integer', minimum: 1 },
    unit: { enum: ['c', 'f'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
} as const;

describe('createValidator', () => {
  it('accepts valid values and returns them unchanged', () => {
    const value = { city: 'Oslo', days: 3 };
    const result = createValidator(weather).validate(value);
    expect(result).toEqual({ ok: true, value });
    expect(result.ok && result.value).toBe(value);
  });

  it('compiles once per schema object', () => {
    expect(createValidator(weather)).toBe(createValidator(weather));
    expect(createValidator({ ...weather })).not.toBe(createValidator(weather));
  });

  it('never shares compiled code between schemas JSON would write alike (Infinity and NaN are null in JSON)', () => {
    const loose = { type: 'object', properties: { n: { type: 'number', maximum: Number.POSITIVE_INFINITY } } };
    const strict = { type: 'object', properties: { n: { type: 'number', maximum: Number.NEGATIVE_INFINITY } } };
    expect(createValidator(loose).validate({ n: 5 }).ok).toBe(true);
    expect(createValidator(strict).validate({ n: 5 }).ok).toBe(false);
    expect(createValidator({ const: null }).validate(null).ok).toBe(true);
    expect(createValidator({ const: Number.NaN }).validate(null).ok).toBe(false);
  });

  it('reuses the compiled code for a new schema object with the same content, and keeps others apart', () => {
    const first = createValidator(structuredClone(weather));
    const copy = structuredClone(weather);
    const second = createValidator(copy);
    // A validator per schema object (its `schema` is the object given), with the same verdicts.
    expect(second).not.toBe(first);
    expect(second.schema).toBe(copy);
    expect(second.validate({ city: 'Oslo', days: 2 })).toEqual({ ok: true, value: { city: 'Oslo', days: 2 } });
    expect(second.validate({ days: 0, extra: true })).toEqual(first.validate({ days: 0, extra: true }));
    expect(second.validate({ days: 0 }).ok).toBe(false);
    // Content that differs by one keyword compiles on its own.
    const stricter = createValidator({ ...structuredClone(weather), required: ['city', 'days'] });
    expect(stricter.validate({ city: 'Oslo' }).ok).toBe(false);
    expect(second.validate({ city: 'Oslo' }).ok).toBe(true);
  });

  it('reports every issue with JSON-pointer paths and readable messages', () => {
    const result = createValidator(weather).validate({ days: 'x', unit: 'k', tags: ['a', 2], extra: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byPath = Object.fromEntries(result.issues.map((issue) => [issue.path, issue]));
    expect(byPath['/city']).toMatchObject({ keyword: 'required', message: 'is required' });
    expect(byPath['/extra']).toMatchObject({ keyword: 'additionalProperties', message: 'is not allowed' });
    expect(byPath['/days']).toMatchObject({ keyword: 'type', message: 'must be integer' });
    expect(byPath['/unit']).toMatchObject({ keyword: 'enum', message: 'must be one of "c", "f"' });
    expect(byPath['/tags/1']).toMatchObject({ keyword: 'type', message: 'must be string' });
    expect(formatValidationIssues(result.issues)).toContain('/city is required');
  });

  it('escapes property names in pointers', () => {
    const schema = { type: 'object', required: ['a/b', 'c~d'] };
    const result = createValidator(schema).validate({});
    expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual(['/a~1b', '/c~0d']);
  });

  it('names the root as <root> when formatting', () => {
    const result = createValidator({ type: 'object' }).validate(3);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(formatValidationIssues(result.issues)).toBe('<root> must be object');
  });

  describe('integer rule', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    it.each([
      ['{"n":1}', true],
      ['{"n":1.0}', true],
      ['{"n":1e3}', true],
      ['{"n":-0}', true],
      ['{"n":1.5}', false],
      ['{"n":"1"}', false],
    ])('%s -> %s', (text, ok) => {
      expect(createValidator(schema).validate(JSON.parse(text)).ok).toBe(ok);
    });
  });

  it('enforces formats', () => {
    const schema = { type: 'object', properties: { to: { type: 'string', format: 'email' } } };
    expect(createValidator(schema).validate({ to: 'a@b.co' }).ok).toBe(true);
    expect(createValidator(schema).validate({ to: 'nope' }).ok).toBe(false);
  });

  it('uses draft 2020-12 by default and draft-07 when declared', () => {
    const tuple2020 = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
    expect(createValidator(tuple2020).validate(['a']).ok).toBe(true);
    expect(createValidator(tuple2020).validate(['a', 1]).ok).toBe(false);
    const tuple07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }],
      additionalItems: false,
    };
    expect(createValidator(tuple07).validate(['a']).ok).toBe(true);
    expect(createValidator(tuple07).validate(['a', 1]).ok).toBe(false);
  });

  it('compiles two different schemas that share an $id', () => {
    const first = createValidator({ $id: 'https://example.com/args', type: 'string' });
    const second = createValidator({ $id: 'https://example.com/args', type: 'number' });
    expect(first.validate('x').ok).toBe(true);
    expect(second.validate(1).ok).toBe(true);
    expect(second.validate('x').ok).toBe(false);
  });

  it('refuses schemas ajv cannot compile with a typed failure', () => {
    expect(() => createValidator({ $ref: '#/$defs/missing' })).toThrow(SchemaCompileFailure);
    expect(() => createValidator({ type: 'object', properties: { a: { type: 'strung' } } })).toThrow(
      SchemaCompileFailure,
    );
  });

  it('passes unknown keywords through without enforcing them', () => {
    expect(createValidator({ type: 'string', 'x-provider-hint': true }).validate('a').ok).toBe(true);
  });
});

describe('checkSchema', () => {
  it('accepts schemas ajv can compile, without compiling them', () => {
    expect(() =>
      checkSchema({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } }),
    ).not.toThrow();
    expect(() =>
      checkSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { b: { type: 'integer' } },
        items: { $ref: '#/definitions/b' },
      }),
    ).not.toThrow();
    expect(() => checkSchema({ $id: 'urn:x', type: 'object', properties: { self: { $ref: 'urn:x' } } })).not.toThrow();
  });

  it.each([
    ['an unknown type', { type: 'strung' }, /type/],
    ['a missing local reference', { $ref: '#/$defs/missing' }, /can't resolve reference #\/\$defs\/missing/],
    ['a remote reference', { $ref: 'https://example.com/schema.json' }, /only local references/],
    ['a bad keyword value', { type: 'object', required: 'a' }, /required/],
    ['not an object', [] as never, /must be an object/],
  ])('refuses %s with a typed failure', (_label, schema, message) => {
    expect(() => checkSchema(schema)).toThrow(SchemaCompileFailure);
    expect(() => checkSchema(schema)).toThrow(message);
  });
});

describe('createValidator on a big invalid value', () => {
  it('reports the first 100 distinct issues and counts the rest in one closing issue', () => {
    const validator = createValidator({
      type: 'object',
      properties: { skus: { type: 'array', items: { type: 'string' } } },
    });
    const result = validator.validate({ skus: new Array(900).fill(0) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(101);
    expect(result.issues[0]).toEqual({ path: '/skus/0', keyword: 'type', message: 'must be string' });
    expect(result.issues[100]).toEqual({ path: '', keyword: 'maxIssues', message: 'and 800 more issues' });
  });

  it('stops collecting past 1000 errors and reports the first failure with a closing issue', () => {
    const validator = createValidator({
      type: 'object',
      properties: { skus: { type: 'array', items: { type: 'string' } } },
    });
    const result = validator.validate({ skus: new Array(100_000).fill(0) });
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: '/skus/0', keyword: 'type', message: 'must be string' },
        { path: '', keyword: 'maxIssues', message: 'and more issues (collection stopped after 1000)' },
      ],
    });
  });

  it('still drops duplicate issues before counting', () => {
    const validator = createValidator({ anyOf: [{ type: 'string' }, { type: 'string' }] });
    const result = validator.validate(1);
    expect(result.ok ? [] : result.issues.filter((issue) => issue.keyword === 'type')).toHaveLength(1);
  });
});

describe('createValidator on uniqueItems', () => {
  const unique = createValidator({ type: 'array', uniqueItems: true });

  it('compares items with JSON Schema equality: key order is irrelevant, 1 and 1.0 are equal', () => {
    expect(
      unique.validate([
        { a: 1, b: [1, { c: 2 }] },
        { b: [1.0, { c: 2 }], a: 1 },
      ]),
    ).toEqual({
      ok: false,
      issues: [
        { path: '', keyword: 'uniqueItems', message: 'must NOT have duplicate items (items ## 0 and 1 are identical)' },
      ],
    });
    expect(unique.validate([1, 1.0]).ok).toBe(false);
    expect(unique.validate([{ a: 1 }, { a: '1' }, { a: [1] }, [1], '1', 1, null, { a: null }, {}]).ok).toBe(true);
    expect(
      unique.validate([
        [1, 2],
        [2, 1],
      ]).ok,
    ).toBe(true);
    expect(createValidator({ type: 'array', uniqueItems: false }).validate([{}, {}]).ok).toBe(true);
    const draft07 = createValidator({ $schema: 'http://json-schema.org/draft-07/schema#', uniqueItems: true });
    expect(draft07.validate([{ x: [] }, { x: [] }]).ok).toBe(false);
  });

  // The tester's cases (/tmp/breakers/followups/a2-correct.mjs): a string spelling another item's
  // key was taken for a duplicate. Keys are tagged by type, so only equal values share one.
  it.each([
    ['a string and the array it spells', ['\u0000[1]', [1]]],
    ['an object and the string it spells', [{}, '\u0000{}']],
    ['a string and a number', ['n1', 1, '1']],
    ['nested strings and numbers', [[['1']], [[1]], [['s1']]]],
    ['keys that look like other entries', [{ 'a":1,"b': 1 }, { a: 1, b: 1 }]],
    ['true and "t"', [true, 't', 'true']],
    ['null and "z"', [null, 'z', 'null']],
  ])('never takes %s for duplicates', (_label, items) => {
    expect(unique.validate(items).ok).toBe(true);
    expect(unique.validate([...items, structuredClone(items[0])]).ok).toBe(false);
  });

  it('finds duplicates among nested values shared or rebuilt, 0 and -0 included', () => {
    const shared = { a: [1, { b: 2 }] };
    expect(unique.validate([shared, shared]).ok).toBe(false);
    expect(unique.validate([{ a: [1, { b: 2 }] }, { a: [1, { b: 2.0 }] }]).ok).toBe(false);
    expect(unique.validate([[0], [-0]]).ok).toBe(false);
    expect(unique.validate([{ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }]).ok).toBe(true);
  });

  it('reads each object item a bounded number of times (linear, not pairwise)', () => {
    let reads = 0;
    const count = 2000;
    const items = Array.from(
      { length: count },
      (_, index) =>
        new Proxy(
          { id: index, tag: 'x' },
          {
            get(target, key, receiver) {
              reads += 1;
              return Reflect.get(target, key, receiver);
            },
          },
        ),
    );
    expect(unique.validate(items).ok).toBe(true);
    // ajv's own check compares every pair: about count² / 2 comparisons, several reads each.
    expect(reads).toBeLessThan(10 * count);
  });
});

describe('Validator.test', () => {
  /** Two object members that share a shape: collecting every issue explores both at every level. */
  const tree = {
    $defs: {
      Node: {
        anyOf: [
          { type: 'number' },
          {
            type: 'object',
            properties: { op: { const: 'add' }, args: { type: 'array', items: { $ref: '#/$defs/Node' } } },
            required: ['op', 'args'],
          },
          {
            type: 'object',
            properties: { op: { const: 'mul' }, args: { type: 'array', items: { $ref: '#/$defs/Node' } } },
            required: ['op', 'args'],
          },
        ],
      },
    },
    $ref: '#/$defs/Node',
  };
  const nest = (depth: number, leaf: unknown): unknown => {
    let node = leaf;
    for (let level = 0; level < depth; level++) node = { op: 'add', args: [node] };
    return node;
  };

  it('agrees with validate on valid and invalid values, draft-07 included', () => {
    const validator = createValidator({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] });
    expect(validator.test({ a: 1 })).toBe(true);
    expect(validator.test({ a: 1.5 })).toBe(false);
    expect(validator.test({})).toBe(false);
    const draft07 = createValidator({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' });
    expect(draft07.test('x')).toBe(true);
    expect(draft07.test(1)).toBe(false);
    const small = createValidator(tree);
    expect(small.test(nest(5, 1))).toBe(small.validate(nest(5, 1)).ok);
    expect(small.test(nest(5, 'x'))).toBe(small.validate(nest(5, 'x')).ok);
  });

  it('refuses a deep invalid recursive union by stopping at the first failure', () => {
    // With every issue collected this value costs 2^80 branch visits; failing fast it costs 80.
    const validator = createValidator(tree);
    expect(validator.test(nest(80, 'x'))).toBe(false);
    expect(validator.test(nest(80, 3))).toBe(true);
  });
});

describe('createValidator on a schema that refers back to itself before reading the value', () => {
  it('reports an issue instead of overflowing the stack, and test says invalid', () => {
    const validator = createValidator({ anyOf: [{ type: 'string' }, { $ref: '#' }] });
    expect(validator.validate(5)).toEqual({
      ok: false,
      issues: [{ path: '', keyword: '$ref', message: expect.stringContaining('refers back to itself') }],
    });
    expect(validator.test(5)).toBe(false);
    // The union stops at its first passing branch (no unevaluated* keyword needs the others), so a
    // string never reaches the self-reference.
    expect(validator.validate('hello')).toEqual({ ok: true, value: 'hello' });
    expect(validator.test('hello')).toBe(true);
  });
});
