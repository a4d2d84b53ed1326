import { describe, expect, it } from 'vitest';
import {
  countingCopy,
  DATA_UNITS_PER_VISIT,
  keyFactor,
  lastBranchVisits,
  MAX_VISITS,
  NODE_UNIT,
  ownCost,
  schemaNodesOf,
  valueWeight,
  visitBudget,
} from './branch-budget.js';
import {
  checkSchema,
  createValidator,
  MAX_SCHEMA_NODES,
  MAX_SUBSCHEMA_ENTRIES,
  SchemaCompileFailure,
} from './create-validator.js';
import { keyPatternFactor } from './string-read-costs.js';

/** `[i, 0, 0, …]`, `size` numbers. */
function row(first: number, size: number): number[] {
  const list = new Array<number>(size).fill(0);
  list[0] = first;
  return list;
}

/** Definitions D0 (`base`) and D1..Dlevels, each an `allOf` of `fanOut` references to the previous one. */
function fannedDefs(base: unknown, fanOut: number, levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { D0: base };
  for (let level = 1; level <= levels; level += 1)
    defs[`D${level}`] = { allOf: Array.from({ length: fanOut }, () => ({ $ref: `#/$defs/D${level - 1}` })) };
  return defs;
}

function keywordsOf(result: ReturnType<ReturnType<typeof createValidator>['validate']>): string[] {
  return result.ok ? [] : result.issues.map((issue) => issue.keyword);
}

describe('the work each application is charged', () => {
  it('charges enum and const by the size of their data, properties and required by their names', () => {
    expect(ownCost({ type: 'string' })).toBe(1);
    const entries = Array.from({ length: 100 }, (_, index) => ({ k: row(index, 30) }));
    // Each entry: the object, its array and 30 numbers.
    expect(ownCost({ enum: entries })).toBe(1 + Math.floor((1 + 100 * 32) / DATA_UNITS_PER_VISIT));
    expect(ownCost({ const: 'x'.repeat(64 * NODE_UNIT) })).toBe(1 + Math.floor(65 / DATA_UNITS_PER_VISIT));
    const names = Array.from({ length: 64 }, (_, index) => `p${index}`);
    expect(ownCost({ properties: Object.fromEntries(names.map((name) => [name, {}])), required: names })).toBe(
      1 + 128 / NODE_UNIT,
    );
    const needs = Object.fromEntries(Array.from({ length: 4 }, (_, index) => [`k${index}`, names.slice(0, 15)]));
    // Four lists of 15 names: 4 × (1 + 15) = 64 names.
    expect(ownCost({ dependentRequired: needs })).toBe(1 + 64 / NODE_UNIT);
    // Each pattern: its program's size per key character (string-read-costs.ts), at least 1.
    const patterns = keyPatternFactor('a', NODE_UNIT) + keyPatternFactor('b', NODE_UNIT);
    expect(patterns).toBeGreaterThanOrEqual(2);
    expect(keyFactor({ patternProperties: { a: {}, b: {} } })).toBe(1 + patterns);
    expect(keyFactor({ patternProperties: { a: {}, b: {} }, additionalProperties: false })).toBe(1 + 2 * patterns);
  });

  it('refuses an object enum applied again and again through an allOf of references, within the budget', () => {
    // The tester's enum.mjs, scaled: 300 entries of 40 numbers, each item applied 8 times (8.5 s before).
    const entries = Array.from({ length: 300 }, (_, index) => ({ k: row(index, 40) }));
    const schema = {
      type: 'object',
      properties: {
        x: { type: 'array', items: { allOf: Array.from({ length: 8 }, () => ({ $ref: '#/$defs/E' })) } },
      },
      $defs: { E: { enum: entries } },
    };
    const value = { x: Array.from({ length: 2000 }, () => ({ k: row(299, 40) })) };
    const validator = createValidator(schema);
    expect(keywordsOf(validator.validate(value))).toEqual(['maxBranchVisits']);
    const perApplication = ownCost({ enum: entries }) + valueWeight(value.x[0]);
    expect(lastBranchVisits()).toBeLessThanOrEqual(MAX_VISITS + perApplication);
    expect(validator.test(value)).toBe(false);
    // A few items are checked in full: the last entry matches, one past it does not.
    expect(validator.validate({ x: value.x.slice(0, 3) }).ok).toBe(true);
    expect(keywordsOf(validator.validate({ x: [{ k: row(300, 40) }] }))).toContain('enum');
  });

  it('refuses many patternProperties over many keys, charging every pattern for every key', () => {
    // The tester's pprops.mjs, scaled: 500 patterns × 20,000 keys, none matching.
    const schema = {
      type: 'object',
      patternProperties: Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`^q${index}$`, {}])),
    };
    const value = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 0]));
    const validator = createValidator(schema);
    expect(keywordsOf(validator.validate(value))).toEqual(['maxBranchVisits']);
    expect(lastBranchVisits()).toBeLessThanOrEqual(MAX_VISITS + keyFactor(schema) * valueWeight(value));
    // Twenty keys are cheap.
    expect(validator.validate(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`q${i}`, 1]))).ok).toBe(true);
  });

  it('refuses a long properties list applied through nested allOfs of references (props.mjs)', () => {
    const names = Array.from({ length: 800 }, (_, index) => `p${index}`);
    const base = { type: 'object', properties: Object.fromEntries(names.map((name) => [name, {}])) };
    const schema = {
      type: 'object',
      properties: { x: { type: 'array', items: { $ref: '#/$defs/D6' } } },
      $defs: fannedDefs(base, 3, 6),
    };
    const value = { x: Array.from({ length: 100 }, () => ({})) };
    expect(keywordsOf(createValidator(schema).validate(value))).toEqual(['maxBranchVisits']);
    expect(lastBranchVisits()).toBeLessThanOrEqual(MAX_VISITS + ownCost(base) + 1);
  });

  it('keeps ordinary schemas accepted: a 2,000-string enum over 1,000 items', () => {
    const codes = Array.from({ length: 2000 }, (_, index) => `code-${index}`);
    const validator = createValidator({ type: 'array', items: { enum: codes } });
    const value = Array.from({ length: 1000 }, (_, index) => codes[(index * 7) % codes.length]);
    expect(validator.validate(value).ok).toBe(true);
    expect(validator.test(value)).toBe(true);
    expect(keywordsOf(validator.validate([...value, 'nope']))).toEqual(['enum']);
  });
});

describe('the schema weight counts the tree $refs expand to', () => {
  const base = { type: 'object', properties: { a: { type: 'string' } } };

  it('counts a shared definition once per use, and a true cycle once', () => {
    // D0 weighs 2 (itself and `a`); each link is itself plus two {$ref} nodes of the previous link.
    const chain = { $defs: fannedDefs(base, 2, 3), $ref: '#/$defs/D3' };
    // D1 = 1 + 2 × (1 + 2) = 7, D2 = 1 + 2 × (1 + 7) = 17, D3 = 1 + 2 × (1 + 17) = 37, root 1 + 37.
    expect(schemaNodesOf(countingCopy(chain))).toBe(38);
    const cycle = {
      $defs: { n: { anyOf: [{ type: 'integer' }, { type: 'array', items: { $ref: '#/$defs/n' } }] } },
      $ref: '#/$defs/n',
    };
    // root, n, its two branches, items: each once.
    expect(schemaNodesOf(countingCopy(cycle))).toBe(5);
  });

  it('accepts a valid value under a merely shared (DAG) schema of 2^12 applications', () => {
    // The tester's a2-chain.mjs with 12 links: refused as over budget before.
    const schema = { $defs: fannedDefs(base, 2, 12), $ref: '#/$defs/D12' };
    const validator = createValidator(schema);
    expect(validator.validate({ a: 'x' })).toEqual({ ok: true, value: { a: 'x' } });
    expect(lastBranchVisits()).toBeGreaterThan(2 ** 12);
    expect(validator.test({ a: 'x' })).toBe(true);
    expect(keywordsOf(validator.validate({ a: 1 }))).toContain('type');
    // 30 links: 2^30 applications, past the cap; refused after at most the cap (40 links nest
    // past MAX_SCHEMA_DEPTH and are refused at definition).
    const huge = { $defs: fannedDefs(base, 2, 30), $ref: '#/$defs/D30' };
    expect(visitBudget({ a: 'x' }, schemaNodesOf(countingCopy(huge)))).toBe(MAX_VISITS);
    expect(keywordsOf(createValidator(huge).validate({ a: 'x' }))).toEqual(['maxBranchVisits']);
    expect(lastBranchVisits()).toBeLessThanOrEqual(MAX_VISITS + 2);
  });

  it('compiles a long definition named many times once (no inlining), and test accepts a valid value', () => {
    // The tester's props-why.mjs: 900 properties named by 100 references overflowed the stack.
    const names = Array.from({ length: 900 }, (_, index) => `p${index}`);
    const schema = {
      type: 'object',
      properties: {
        x: { type: 'array', items: { allOf: Array.from({ length: 100 }, () => ({ $ref: '#/$defs/D0' })) } },
      },
      $defs: { D0: { type: 'object', properties: Object.fromEntries(names.map((name) => [name, {}])) } },
    };
    const validator = createValidator(schema);
    expect(validator.test({ x: [{}] })).toBe(true);
    expect(validator.validate({ x: [{}, { p3: 1 }] }).ok).toBe(true);
    expect(keywordsOf(validator.validate({ x: [5] }))).toContain('type');
  });
});

describe('stack overflows are reported for what they are', () => {
  const node = (op: string) => ({
    type: 'object',
    properties: { op: { const: op }, args: { type: 'array', items: { $ref: '#/$defs/Expr' } } },
    required: ['args'],
  });
  const expression = {
    $defs: {
      Expr: { anyOf: [{ $ref: '#/$defs/Add' }, { $ref: '#/$defs/Neg' }, { type: 'number' }] },
      Add: node('add'),
      Neg: node('neg'),
    },
    $ref: '#/$defs/Expr',
  };

  it('a valid value nested past the call stack is a maxDepth issue, not a self-reference', () => {
    let value: unknown = 5;
    for (let level = 0; level < 5000; level += 1) value = { op: 'neg', args: [value] };
    const validator = createValidator(expression);
    expect(validator.validate(value)).toEqual({
      ok: false,
      issues: [{ path: '', keyword: 'maxDepth', message: expect.stringContaining('nested too deeply') }],
    });
    expect(validator.test(value)).toBe(false);
    let shallow: unknown = 5;
    for (let level = 0; level < 100; level += 1) shallow = { op: 'neg', args: [shallow] };
    expect(validator.validate(shallow).ok).toBe(true);
  });

  it('a schema that loops in place is still reported as referring back to itself', () => {
    const validator = createValidator({
      $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } },
      $ref: '#/$defs/a',
    });
    expect(keywordsOf(validator.validate(1))).toEqual(['$ref']);
  });
});

describe('compile-time limits', () => {
  const union = () => ({ anyOf: [{ type: 'object' }, { type: 'array' }, { type: 'string' }] });

  it('refuses 2,000 root allOf unions with a typed error naming the limit (a2-allof.mjs: 19 s before)', () => {
    const schema = { allOf: Array.from({ length: 2000 }, union), type: 'array' };
    for (const attempt of [() => checkSchema(schema), () => createValidator(structuredClone(schema))]) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(SchemaCompileFailure.isInstance(caught)).toBe(true);
      expect((caught as SchemaCompileFailure).limit).toBe('maxSubschemaEntries');
      expect((caught as SchemaCompileFailure).message).toContain(String(MAX_SUBSCHEMA_ENTRIES));
    }
  });

  it('counts entries along a path: nested wide objects add up, siblings do not', () => {
    const wide = (count: number) => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' }])),
    });
    // Two siblings of 600 each: each path holds about 600.
    const siblings = { type: 'object', properties: { a: wide(600), b: wide(600) } };
    const validator = createValidator(siblings);
    expect(validator.test({ a: { p1: 'x' }, b: {} })).toBe(true);
    expect(validator.validate({ a: { p1: 1 } }).ok).toBe(false);
    // 600 inside one of 600 entries: one path holds 1,200.
    const nested = { type: 'object', properties: { ...wide(599).properties, deep: wide(600) } };
    expect(() => checkSchema(nested)).toThrow(/maxSubschemaEntries/);
  });

  it('counts an object shared by many parents once per parent, as ajv compiles it', () => {
    // Three JS objects, 160,000 subschemas as JSON: ajv would compile each use.
    const leaf = { type: 'string' };
    const middle = { allOf: new Array(400).fill(leaf) };
    const top = { allOf: new Array(400).fill(middle) };
    expect(() => checkSchema(top)).toThrow(/maxSchemaNodes/);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(() => checkSchema(cyclic)).toThrow(SchemaCompileFailure);
  });

  it('refuses a schema of more than MAX_SCHEMA_NODES subschemas', () => {
    const defs = Object.fromEntries(
      Array.from({ length: MAX_SCHEMA_NODES }, (_, index) => [`d${index}`, { type: 'string' }]),
    );
    let caught: unknown;
    try {
      checkSchema({ $defs: defs });
    } catch (error) {
      caught = error;
    }
    expect((caught as SchemaCompileFailure).limit).toBe('maxSchemaNodes');
  });
});
