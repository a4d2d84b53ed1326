import { describe, expect, it } from 'vitest';
import { createValidator } from './create-validator.js';
import type { ValidationIssue } from './validation-issue.js';

const issuesOf = (result: { ok: boolean; issues?: readonly ValidationIssue[] }): readonly ValidationIssue[] =>
  result.issues ?? [];

describe('const and enum issue messages (constmsg.mjs: 999 items × a 1 MB const took 7 s and 1.1 GB)', () => {
  it('shows at most 200 characters of a huge const, cut with …', () => {
    const big = 'x'.repeat(1_000_000);
    const validator = createValidator({ type: 'array', items: { const: big } });
    const issues = issuesOf(validator.validate(new Array(999).fill(0)));
    // 100 issues and the closing count, each message bounded.
    expect(issues).toHaveLength(101);
    expect(issues[0]).toEqual({ path: '/0', keyword: 'const', message: `must be "${'x'.repeat(199)}…` });
    for (const issue of issues) expect(issue.message.length).toBeLessThanOrEqual(220);
  });

  it('bounds a wide or deep object const and a long enum the same way', () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`key${i}`, i]));
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const allowed of [wide, deep]) {
      const [issue] = issuesOf(createValidator({ const: allowed }).validate('no'));
      expect(issue?.keyword).toBe('const');
      expect(issue?.message.length).toBeLessThanOrEqual(220);
      expect(issue?.message.endsWith('…')).toBe(true);
    }
    const colours = Array.from({ length: 5000 }, (_, i) => `colour-${i}`);
    const [issue] = issuesOf(createValidator({ enum: colours }).validate('mauve'));
    expect(issue?.message.startsWith('must be one of "colour-0", "colour-1", ')).toBe(true);
    expect(issue?.message.length).toBeLessThanOrEqual(220);
  });

  it('writes small values whole, as JSON', () => {
    expect(issuesOf(createValidator({ const: { a: [1, 'b', null] } }).validate({}))).toEqual([
      { path: '', keyword: 'const', message: 'must be {"a":[1,"b",null]}' },
    ]);
    expect(issuesOf(createValidator({ enum: ['c', 'f', 3] }).validate('k'))).toEqual([
      { path: '', keyword: 'enum', message: 'must be one of "c", "f", 3' },
    ]);
    expect(issuesOf(createValidator({ const: [] }).validate(1))[0]?.message).toBe('must be []');
  });
});
