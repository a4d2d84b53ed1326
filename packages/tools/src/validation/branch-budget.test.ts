import { describe, expect, it } from 'vitest';
import {
  countingCopy,
  lastBranchVisits,
  MIN_VISITS,
  VISIT_KEYWORD,
  VISITS_PER_NODE,
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
      expect(lastBranchVisits()).toBeLessThanOrEqual(visitBudget(value) + 1);
      if (!result.ok) {
        expect(result.issues).toHaveLength(1);
        expect(result.issues[0]?.keyword).toBe('maxBranchVisits');
      }
      expect(validator.test(value)).toBe(false);
      expect(lastBranchVisits()).toBeLessThanOrEqual(visitBudget(value) + 1);
    },
  );

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

    const huge = createValidator(doublingChain(40));
    const result = huge.validate(3);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.keyword).toBe('maxBranchVisits');
    expect(lastBranchVisits()).toBeLessThanOrEqual(visitBudget(3) + 1);
    expect(huge.test(3)).toBe(false);
  });

  it('grows with the value: a big valid array of references is never refused', () => {
    const validator = createValidator({
      $defs: { item: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] } },
      type: 'array',
      items: { $ref: '#/$defs/item' },
    });
    const value = Array.from({ length: 30_000 }, (_, index) => (index % 3 === 0 ? null : index));
    expect(validator.validate(value).ok).toBe(true);
    expect(lastBranchVisits()).toBeGreaterThan(MIN_VISITS);
    expect(visitBudget(value)).toBe(MIN_VISITS + VISITS_PER_NODE * 30_001);
  });

  it('marks every $ref and union branch of a copy, leaving pointers, data and the original alone', () => {
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
    expect(copy.properties.$ref).toEqual({ type: 'string' });
    expect(copy.properties.a.anyOf).toEqual([
      { $ref: '#/$defs/x', [VISIT_KEYWORD]: true },
      { type: 'null', [VISIT_KEYWORD]: true },
      true,
    ]);
    expect(copy.$defs.x.oneOf[0]).toEqual({ const: { $ref: 'not a reference' }, [VISIT_KEYWORD]: true });
    expect(copy.default).toBe(schema.default);
  });
});
