import { describe, expect, it } from 'vitest';
import { createValidator } from './create-validator.js';

/** `depth` arrays nested around 1. */
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

const keywordsOf = (result: { ok: boolean; issues?: readonly { keyword: string }[] }) =>
  (result.issues ?? []).map((issue) => issue.keyword);

describe('the reason given for a stack overflow (deep.mjs)', () => {
  const recursive = { anyOf: [{ type: 'number' }, { type: 'array', items: { $ref: '#' } }] };

  it('says maxDepth for a deep value, whatever loops a definition nothing reaches holds', () => {
    const unreferencedLoop = { $defs: { loop: { anyOf: [{ $ref: '#/$defs/loop' }] } }, ...recursive };
    for (const schema of [recursive, unreferencedLoop]) {
      const validator = createValidator(schema);
      expect(keywordsOf(validator.validate(nested(50_000)))).toEqual(['maxDepth']);
      expect(validator.test(nested(50_000))).toBe(false);
      expect(validator.validate(nested(50)).ok).toBe(true);
    }
  });

  it('says maxDepth for a deep value that never takes the looping branch, $ref for a shallow one that does', () => {
    const guarded = {
      $defs: { loop: { allOf: [{ $ref: '#/$defs/loop' }] } },
      if: { type: 'string' },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      then: { $ref: '#/$defs/loop' },
      else: recursive,
    };
    const validator = createValidator(guarded);
    expect(keywordsOf(validator.validate(nested(50_000)))).toEqual(['maxDepth']);
    expect(validator.validate(nested(50)).ok).toBe(true);
    // A string does take the loop: the schema is what cannot be checked.
    expect(keywordsOf(validator.validate('text'))).toEqual(['$ref']);
  });
});
