import { describe, expect, it } from 'vitest';
import {
  countingCopy,
  lastBranchVisits,
  MAX_COLLECTED_ERRORS,
  MAX_VISITS,
  MIN_VISITS,
  schemaNodesOf,
  VISIT_KEYWORD,
  VISITS_PER_PAIR,
  valueWeight,
  visitBudget,
} from './branch-budget.js';
import { createValidator } from './create-validator.js';

/** `{c: {c: … 5 …}}`, `depth` levels deep. */
function chain(depth: number): unknown {
  let value: unknown = 5;
  for (let level = 0; level < depth; level += 1) value = { c: value };
  return value;
}

// Each level is a union of two branches that both recurse into `c` before failing (the second
// fails on `required` only after its `allOf` has walked the child): collecting every issue, or
// even stopping at the first failure, tries 2^depth paths. The leaf 5 is no object, so every
// path fails. Constructed worst case (the shape of ajv issue 1223's nested anyOf with $ref).
const twoWayUnion = {
  $defs: {
    n: {
      anyOf: [
        { type: 'object', properties: { c: { $ref: '#/$defs/n' } } },
        { allOf: [{ type: 'object', properties: { c: { $ref: '#/$defs/n' } } }, { required: ['x'] }] },
      ],
    },
  },
  $ref: '#/$defs/n',
};

// A non-recursive chain of definitions, each referring to the next twice: 2^links applications
// for any value, valid or not, with a schema of linear size.
function doublingChain(links: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { d0: { type: 'integer' } };
  for (let link = 1; link <= links; link += 1)
    defs[`d${link}`] = { allOf: [{ $ref: `#/$defs/d${link - 1}` }, { $ref: `#/$defs/d${link - 1}` }] };
  return { $defs: defs, $ref: `#/$defs/d${links}` };
}

/** The visit budget of `value` under `schema`, as validate computes it. */
function budgetOf(schema: Record<string, unknown>, value: unknown): number {
  return visitBudget(value, schemaNodesOf(countingCopy(schema)));
}

/**
 * The most visits a stopped run may have charged: its budget plus the last charge (one node's
 * weight, at most the whole value's).
 */
function ceilingOf(schema: Record<string, unknown>, value: unknown): number {
  return budgetOf(schema, value) + valueWeight(value);
}

/** `{c: {c: … leaf …}}`, `depth` levels deep. */
function chainOf(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = { c: value };
  return value;
}

// A union whose branches are only `$ref`s to distinct definitions, each recursing into `c`
// (the tester's case: an 81-byte value took 23 s). Every branch applies its definition, so an
// invalid leaf is reached by 3^depth paths.
const refOnlyUnion = {
  $defs: {
    n: { anyOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/b' }, { $ref: '#/$defs/c' }] },
    a: { title: 'a', type: 'object', properties: { c: { $ref: '#/$defs/n' } } },
    b: { title: 'b', type: 'object', properties: { c: { $ref: '#/$defs/n' } } },
    c: { title: 'c', type: 'object', properties: { c: { $ref: '#/$defs/n' } } },
  },
  $ref: '#/$defs/n',
};

describe('the subschema visit budget of validate and test', () => {
  it('counts visits, linear in depth for a union that discriminates', () => {
    const validator = createValidator({
      $defs: { n: { anyOf: [{ type: 'integer' }, { type: 'object', properties: { c: { $ref: '#/$defs/n' } } }] } },
      $ref: '#/$defs/n',
    });
    expect(validator.validate(chain(40)).ok).toBe(true);
    const at40 = lastBranchVisits();
    expect(validator.validate(chain(80)).ok).toBe(true);
    expect(lastBranchVisits()).toBeGreaterThan(at40);
    expect(lastBranchVisits()).toBeLessThanOrEqual(2 * at40 + 4);
  });

  it.each([20, 26, 40])(
    'an invalid value under a two-way recursive union %i levels deep: a typed refusal within the budget',
    (depth) => {
      const value = chain(depth);
      const validator = createValidator(structuredClone(twoWayUnion));
      const result = validator.validate(value);
      expect(result.ok).toBe(false);
      // Two budgeted runs at most (every issue, then the first failure), each stopped at the budget.
      expect(lastBranchVisits()).toBeLessThanOrEqual(ceilingOf(twoWayUnion, value));
      if (!result.ok) {
        expect(result.issues).toHaveLength(1);
        expect(result.issues[0]?.keyword).toBe('maxBranchVisits');
      }
      expect(validator.test(value)).toBe(false);
      expect(lastBranchVisits()).toBeLessThanOrEqual(ceilingOf(twoWayUnion, value));
    },
  );

  it.each([12, 16, 40])(
    'union branches that are only $refs are counted too: %i levels are refused within the budget',
    (depth) => {
      const value = chainOf(depth, 'x');
      const validator = createValidator(structuredClone(refOnlyUnion));
      const result = validator.validate(value);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues.map((issue) => issue.keyword)).toEqual(['maxBranchVisits']);
      expect(lastBranchVisits()).toBeLessThanOrEqual(ceilingOf(refOnlyUnion, value));
      expect(validator.test(value)).toBe(false);
      expect(lastBranchVisits()).toBeLessThanOrEqual(ceilingOf(refOnlyUnion, value));
    },
  );

  it('the same $ref-only union still checks a shallow value and a deep valid one', () => {
    const validator = createValidator(structuredClone(refOnlyUnion));
    const shallow = validator.validate(chainOf(3, 'x'));
    expect(shallow.ok).toBe(false);
    if (!shallow.ok) expect(shallow.issues.map((issue) => issue.keyword)).toContain('type');
    // A valid value takes the first branch at every level: linear.
    expect(validator.validate(chainOf(200, {})).ok).toBe(true);
    expect(lastBranchVisits()).toBeLessThan(MIN_VISITS);
  });

  it('a shallow invalid value under the same union still gets every issue', () => {
    const result = createValidator(structuredClone(twoWayUnion)).validate(chain(3));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues.map((issue) => issue.keyword)).toContain('type');
      expect(result.issues.map((issue) => issue.keyword)).not.toContain('maxBranchVisits');
    }
  });

  it('a doubling $defs chain is refused once it would pass the budget, even for a valid value', () => {
    const small = createValidator(doublingChain(8));
    expect(small.validate(3)).toEqual({ ok: true, value: 3 });
    expect(lastBranchVisits()).toBeGreaterThanOrEqual(2 ** 8);
    expect(small.validate('x').ok).toBe(false);

    // 30 links (2^30 applications): past the budget, within MAX_SCHEMA_DEPTH (40 links are refused at definition).
    const schema = doublingChain(30);
    const huge = createValidator(schema);
    const result = huge.validate(3);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.keyword).toBe('maxBranchVisits');
    expect(lastBranchVisits()).toBeLessThanOrEqual(ceilingOf(schema, 3));
    expect(huge.test(3)).toBe(false);
  });

  it('grows with the value: a big valid array of references is never refused', () => {
    const schema = {
      $defs: { item: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] } },
      type: 'array',
      items: { $ref: '#/$defs/item' },
    };
    const validator = createValidator(schema);
    const value = Array.from({ length: 30_000 }, (_, index) => (index % 3 === 0 ? null : index));
    expect(validator.validate(value).ok).toBe(true);
    expect(lastBranchVisits()).toBeGreaterThan(MIN_VISITS);
    // 6 schema nodes (root, items, the definition, its three branches); the array weighs
    // 1 + 30,000/16 and each item 1.
    expect(schemaNodesOf(countingCopy(schema))).toBe(6);
    expect(valueWeight(value)).toBe(1 + 1875 + 30_000);
    expect(budgetOf(schema, value)).toBe(MIN_VISITS + VISITS_PER_PAIR * 6 * 31_876);
  });

  it('charges a long string by its length, and caps any budget at MAX_VISITS', () => {
    expect(valueWeight('x'.repeat(160))).toBe(11);
    expect(valueWeight({ ['k'.repeat(32)]: 1 })).toBe(1 + 2 + 1);
    expect(visitBudget(new Array(1_000_000).fill(0), 1000)).toBe(MAX_VISITS);
  });

  it('bounds the work of unions of failing branches over a big array by the hard cap', () => {
    // The tester's case: 50 unions per item, none matching, over 100,000 items (35 s, 2.7 GB before).
    const union = () => ({ anyOf: [{ type: 'object' }, { type: 'array' }, { type: 'string' }] });
    const schema = { type: 'array', items: { allOf: Array.from({ length: 50 }, union) } };
    const validator = createValidator(schema);
    const invalid = new Array(40_000).fill(5);
    const result = validator.validate(invalid);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.path).toBe('/0');
    expect(lastBranchVisits()).toBeLessThanOrEqual(MAX_VISITS);
    // Valid, but 40,000 items × 50 unions × 3 branches is past the hard cap: refused, never let through.
    const valid = validator.validate(new Array(40_000).fill('s'));
    expect(valid.ok).toBe(false);
    if (!valid.ok) expect(valid.issues.map((issue) => issue.keyword)).toEqual(['maxBranchVisits']);
    expect(lastBranchVisits()).toBeLessThanOrEqual(MAX_VISITS + valueWeight(['s']));
  });

  it('stops collecting the errors of failed branches at MAX_COLLECTED_ERRORS, then reports the first failure', () => {
    // The tester's case: 200 failing branches over 100,000 items piled up 20 million errors.
    const branches = Array.from({ length: 200 }, (_, index) => ({
      type: 'array',
      items: { type: 'string', minLength: index },
    }));
    const validator = createValidator({ anyOf: branches });
    const result = validator.validate(new Array(20_000).fill(1));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.at(-1)).toEqual({
      path: '',
      keyword: 'maxIssues',
      message: `and more issues (collection stopped after ${MAX_COLLECTED_ERRORS})`,
    });
    expect(result.issues.map((issue) => issue.path)).toContain('/0');
    // The first-failure run stops each branch at its first item: per branch, the array's weight
    // (1 + 20,000/16) and one item.
    expect(lastBranchVisits()).toBeLessThanOrEqual(branches.length * (1 + 1250 + 1) + 1);
    expect(validator.validate(new Array(20_000).fill('long enough '.repeat(20))).ok).toBe(true);
  });

  it('marks every object subschema of a copy, leaving pointers, data and the original alone', () => {
    const schema = {
      properties: {
        $ref: { type: 'string' },
        a: { anyOf: [{ $ref: '#/$defs/x' }, { type: 'null' }, true] },
      },
      $defs: { x: { oneOf: [{ const: { $ref: 'not a reference' } }, { type: 'integer' }] } },
      default: { anyOf: [{}] },
    };
    const before = structuredClone(schema);
    const copy = countingCopy(schema) as typeof schema & Record<string, unknown>;
    expect(schema).toEqual(before);
    expect(copy[VISIT_KEYWORD]).toBe(true);
    expect(copy.properties).not.toHaveProperty(VISIT_KEYWORD);
    expect(copy.$defs).not.toHaveProperty(VISIT_KEYWORD);
    expect(copy.properties.$ref).toEqual({ type: 'string', [VISIT_KEYWORD]: true });
    expect(copy.properties.a.anyOf).toEqual([
      { $ref: '#/$defs/x', [VISIT_KEYWORD]: true },
      { type: 'null', [VISIT_KEYWORD]: true },
      true,
    ]);
    expect(copy.$defs.x.oneOf[0]).toEqual({ const: { $ref: 'not a reference' }, [VISIT_KEYWORD]: true });
    expect(copy.default).toBe(schema.default);
    // root, properties.$ref, properties.a, its two object branches, $defs.x, its two branches.
    expect(schemaNodesOf(copy)).toBe(8);
  });
});

describe('uniqueItems in the visit budget', () => {
  // A recursive union of unique arrays over a comb (each level holds 200 numbers and the next
  // level): keying each level's items again would be quadratic in depth (the tester's uniqueComb).
  const schema = {
    $defs: { n: { anyOf: [{ type: 'array', uniqueItems: true, items: { $ref: '#/$defs/n' } }, { type: 'integer' }] } },
    $ref: '#/$defs/n',
  };
  function comb(depth: number): unknown[] {
    let value: unknown[] = [];
    for (let level = 0; level < depth; level += 1) value = [...Array.from({ length: 200 }, (_, i) => i), value];
    return value;
  }

  it('keys nested items once per run: the visits grow linearly with depth', () => {
    const validator = createValidator(schema);
    expect(validator.validate(comb(50)).ok).toBe(true);
    const at50 = lastBranchVisits();
    expect(validator.validate(comb(100)).ok).toBe(true);
    expect(lastBranchVisits()).toBeLessThanOrEqual(2 * at50 + 10);
  });

  it('counts the keying: a huge unique array under a doubling chain is refused within the budget', () => {
    const defs: Record<string, unknown> = { d0: { type: 'array', uniqueItems: true } };
    for (let link = 1; link <= 30; link += 1)
      defs[`d${link}`] = { allOf: [{ $ref: `#/$defs/d${link - 1}` }, { $ref: `#/$defs/d${link - 1}` }] };
    const doubling = { $defs: defs, $ref: '#/$defs/d30' };
    const value = Array.from({ length: 20_000 }, (_, index) => ({ id: index }));
    const result = createValidator(doubling).validate(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.keyword)).toEqual(['maxBranchVisits']);
    expect(lastBranchVisits()).toBeLessThanOrEqual(ceilingOf(doubling, value) + value.length);
  });
});
