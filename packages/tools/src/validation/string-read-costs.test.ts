import { describe, expect, it } from 'vitest';
import { lastBranchVisits, MAX_VISITS, MIN_VISITS } from './branch-budget.js';
import { createValidator } from './create-validator.js';
import { patternProgramSize } from './linear-regexp.js';
import { PATTERN_STEPS_PER_VISIT, stringReadCost } from './string-read-costs.js';

/** A deterministic string of `a` and `b`. */
function letters(length: number, seed = 12345): string {
  let state = seed;
  let out = '';
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out += state & 1 ? 'a' : 'b';
  }
  return out;
}

const keywordsOf = (result: { ok: boolean; issues?: readonly { keyword: string }[] }): string[] =>
  result.ok ? [] : (result.issues ?? []).map((issue) => issue.keyword);

describe('format and pattern checks are charged by their cost', () => {
  it('charges a pattern by length × program size, so a huge NFA on a long string is refused unrun', () => {
    // re2nfa.mjs: 1.4 to 10.7 s on 100,000 characters while charged length / 16.
    const pattern = '^[ab]*a[ab]{999}$';
    const size = patternProgramSize(pattern);
    expect(size).toBeGreaterThan(999);
    expect(stringReadCost({ pattern })?.perChar).toBe(size / PATTERN_STEPS_PER_VISIT);
    const validator = createValidator({ type: 'string', pattern });
    expect(keywordsOf(validator.validate(letters(100_000)))).toEqual(['maxBranchVisits']);
    // Refused by the charge before matching: one charge past the cap at most.
    expect(lastBranchVisits()).toBeLessThanOrEqual(
      MAX_VISITS + 1 + Math.ceil((100_000 * size) / PATTERN_STEPS_PER_VISIT),
    );
    expect(validator.test(letters(100_000))).toBe(false);
    // A short string is checked, with its real answer.
    const short = `${'b'.repeat(10)}a${'b'.repeat(999)}`;
    expect(validator.validate(short).ok).toBe(true);
    expect(validator.validate(`b${short}`).ok).toBe(true);
    expect(keywordsOf(validator.validate(`${'b'.repeat(11)}${'a'.repeat(999)}`))).toEqual(['pattern']);
  });

  it('keeps ordinary patterns on long strings within the budget (the schema weight grows with the program)', () => {
    const validator = createValidator({
      type: 'object',
      properties: { s: { type: 'string', pattern: '^[a-z0-9]+$' } },
    });
    expect(validator.validate({ s: 'a'.repeat(200_000) }).ok).toBe(true);
    const charged = lastBranchVisits();
    expect(charged).toBeGreaterThanOrEqual((200_000 * patternProgramSize('^[a-z0-9]+$')) / PATTERN_STEPS_PER_VISIT);
    expect(charged).toBeLessThanOrEqual(MAX_VISITS);
    expect(keywordsOf(validator.validate({ s: `${'a'.repeat(200_000)}!` }))).toEqual(['pattern']);
  });

  it('charges patternProperties patterns per key character by their program size', () => {
    const schema = { type: 'object', patternProperties: { '^[ab]*a[ab]{200}$': { type: 'number' } } };
    const validator = createValidator(schema);
    const value = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [letters(2_000, index + 1), 1]));
    expect(keywordsOf(validator.validate(value))).toEqual(['maxBranchVisits']);
    expect(validator.validate({ [`a${'b'.repeat(200)}`]: 1 }).ok).toBe(true);
    expect(keywordsOf(validator.validate({ [`a${'b'.repeat(200)}`]: 'x' }))).toEqual(['type']);
  });

  it('charges idn-hostname by its measured cost, so a DAG applying it 4,096 times to 300 names is refused', () => {
    // idndag.mjs 300 12: 15.8 s while charged one visit per check.
    const defs: Record<string, object> = { d0: { type: 'array', items: { type: 'string', format: 'idn-hostname' } } };
    for (let level = 1; level <= 12; level += 1)
      defs[`d${level}`] = { allOf: [{ $ref: `#/$defs/d${level - 1}` }, { $ref: `#/$defs/d${level - 1}` }] };
    const validator = createValidator({ type: 'object', properties: { list: { $ref: '#/$defs/d12' } }, $defs: defs });
    const list = Array.from({ length: 300 }, () => 'مثال.إختبار');
    expect(keywordsOf(validator.validate({ list }))).toEqual(['maxBranchVisits']);
    const perCheck = stringReadCost({ format: 'idn-hostname' });
    expect(perCheck?.base).toBeGreaterThanOrEqual(100);
    expect(lastBranchVisits()).toBeLessThanOrEqual(
      MAX_VISITS + 2 + (perCheck?.base ?? 0) + 11 * (perCheck?.perChar ?? 0),
    );
    // Two applications of 300 names pass, charged at least their checks.
    const small = createValidator({ type: 'array', items: { type: 'string', format: 'idn-hostname' } });
    expect(small.validate(list).ok).toBe(true);
    expect(lastBranchVisits()).toBeGreaterThanOrEqual(300 * (perCheck?.base ?? 0));
    expect(keywordsOf(small.validate(['مثال.إختبار', 'a..b']))).toEqual(['format']);
  });

  it('charges the IDNA cost only to names that need IDNA (non-ASCII or an xn-- label)', () => {
    const base = stringReadCost({ format: 'hostname' })?.base ?? 0;
    expect(base).toBeGreaterThanOrEqual(100);
    for (const format of ['hostname', 'email', 'idn-hostname', 'idn-email']) {
      const validator = createValidator({ type: 'array', items: { type: 'string', format } });
      const ascii = Array.from({ length: 1000 }, (_, index) =>
        format.endsWith('email') ? `user${index}@example.com` : `h${index}.example.org`,
      );
      expect(validator.validate(ascii).ok).toBe(true);
      expect(lastBranchVisits()).toBeLessThan(1000 * base);
      const punycode = ascii.map((value) => value.replace('example', 'xn--bcher-kva'));
      expect(validator.validate(punycode).ok).toBe(true);
      expect(lastBranchVisits()).toBeGreaterThanOrEqual(1000 * base);
    }
    // 5,000 records of ordinary formatted fields stay within the budget.
    const records = createValidator({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email' },
          site: { type: 'string', format: 'uri' },
          at: { type: 'string', format: 'date-time' },
          host: { type: 'string', format: 'hostname' },
          code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
        },
      },
    });
    const value = Array.from({ length: 5000 }, (_, index) => ({
      email: `user${index}@example.com`,
      site: `https://example.com/p/${index}?q=1`,
      at: '2024-01-02T03:04:05Z',
      host: `h${index}.example.org`,
      code: 'ABC-1234',
    }));
    expect(records.validate(value).ok).toBe(true);
  });

  it('answers ASCII idn-hostnames on the fast path with the full check’s answer', () => {
    const validator = createValidator({ type: 'string', format: 'idn-hostname' });
    for (const [name, valid] of [
      ['example.com', true],
      ['EXAMPLE.com', true],
      ['a-.com', false],
      ['ab--c.com', false],
      ['xn--bcher-kva.de', true],
      ['xn--X', false],
      [`${'a'.repeat(63)}.b`, true],
      [`${'a'.repeat(64)}.b`, false],
      ['a..b', false],
      ['a_b.com', false],
      ['-a.com', false],
    ] as const)
      expect([name, validator.validate(name).ok]).toEqual([name, valid]);
    expect(lastBranchVisits()).toBeLessThan(MIN_VISITS);
  });
});

describe('pattern rewriting keeps the u flag meaning', () => {
  it.each([
    ['^[\\uD83D\\uDE00]$', ['😀'], ['\uD83D', '\uDE00']],
    ['^[^\\uD83D\\uDE00]$', ['a', '\uD83D'], ['😀']],
    ['^\\uD83D\\uDE00+$', ['😀😀'], ['\uD83D']],
    ['^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$', ['😀', '🙏'], ['😐a', 'a']],
    ['^\\p{Letter}+$', ['héllo', 'Ωμέγα'], ['h3llo']],
    ['^\\p{Script=Greek}+$', ['Ωμέγα'], ['abc']],
    ['^\\p{sc=Greek}$', ['Ω'], ['a']],
    ['^\\p{General_Category=Decimal_Number}+$', ['12٣'], ['1a']],
    ['^[\\p{Uppercase_Letter}\\d]+$', ['AB1'], ['aB']],
    ['^\\P{Letter}$', ['1'], ['a']],
  ])('%s', (pattern, matching, failing) => {
    const validator = createValidator({ type: 'string', pattern });
    for (const value of matching) {
      expect(new RegExp(pattern, 'u').test(value)).toBe(true);
      expect([value, validator.validate(value).ok]).toEqual([value, true]);
    }
    for (const value of failing) {
      expect(new RegExp(pattern, 'u').test(value)).toBe(false);
      expect([value, validator.validate(value).ok]).toEqual([value, false]);
    }
  });
});
