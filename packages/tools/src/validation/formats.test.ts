import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { lastBranchVisits, MAX_VISITS } from './branch-budget.js';
import { createValidator } from './create-validator.js';
import { formatSuite } from './format-suite.fixtures.js';
import { isDateTime, isDuration, isHostname, isUrl } from './formats.js';

// ajv-formats' own `url` expression, the reference the linear check must agree with.
const ajvFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as { get(name: string): unknown };
const ajvUrl = ajvFormats.get('url') as RegExp;

describe('formats replaced for linear time and 2020-12 meaning', () => {
  it.each(Object.entries(formatSuite))('agrees with every JSON-Schema-Test-Suite case of %s', (format, cases) => {
    const validator = createValidator({ type: 'string', format });
    const wrong = cases.filter(([data, valid]) => validator.validate(data).ok !== valid).map(([, , what]) => what);
    expect(wrong).toEqual([]);
  });

  it('decides url as ajv-formats does, on generated strings', () => {
    expect(ajvUrl).toBeInstanceOf(RegExp);
    const parts = [
      'a',
      'b.',
      '.',
      '-',
      '@',
      '/',
      ':',
      '1',
      '9',
      '0',
      ' ',
      'é',
      'x.com',
      'co',
      '10.',
      '192.168.',
      '8.8.',
      '172.16.',
      '127.',
    ];
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const differ: string[] = [];
    for (let run = 0; run < 20_000; run += 1) {
      let value = next() < 0.9 ? 'http://' : 'ftp:/';
      const length = Math.floor(next() * 10);
      for (let index = 0; index < length; index += 1) value += parts[Math.floor(next() * parts.length)];
      if (isUrl(value) !== ajvUrl.test(value)) differ.push(value);
    }
    expect(differ).toEqual([]);
    for (const [value, valid] of [
      ['http://user:pass@example.com:8080/a@b', true],
      ['http://x/y@example.com', true],
      ['http://@example.com', false],
      ['http://10.0.0.1', false],
      ['http://10.0.0.1:80', false],
      ['http://172.16.0.1:8080/x', false],
      ['http://8.8.8.8/p', true],
      ['http://a.com/ b', false],
    ] as const)
      expect(isUrl(value)).toBe(valid);
  });

  it('answers url on 80,000 characters of colons and at-signs (superlinear in ajv-formats)', () => {
    // fmtscale.mjs: 'http://' + ':' × 80,000 took 12.8 s in ajv-formats' expression.
    expect(isUrl(`http://${':'.repeat(80_000)}`)).toBe(false);
    expect(isUrl(`http://${'@a/'.repeat(30_000)}`)).toBe(false);
    expect(isUrl(`http://${'a@'.repeat(30_000)}example.com/`)).toBe(true);
    const validator = createValidator({ type: 'string', format: 'url' });
    expect(validator.validate(`http://${':'.repeat(80_000)}`).ok).toBe(false);
    expect(lastBranchVisits()).toBeLessThan(MAX_VISITS);
  });

  it('reads durations, date-times and host names as RFC 3339 and RFC 1123 do', () => {
    expect([isDuration('P1Y2M3D'), isDuration('P1Y2D'), isDuration('PT1H2S'), isDuration('PT1M2S')]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(isDateTime('1985-04-12T23:20:50+01')).toBe(false);
    expect(isDateTime('1985-04-12T23:20:50+01:00')).toBe(true);
    expect(isDateTime('1998-12-31T23:59:60Z')).toBe(true);
    expect(isDateTime('1998-12-31T15:59:60-08:00')).toBe(true);
    expect(isDateTime('1998-12-31T22:59:60Z')).toBe(false);
    expect(isDateTime(`1985-04-12T00:59:59.${'9'.repeat(40)}Z`)).toBe(true);
    expect([
      isHostname('example.com'),
      isHostname('example.com.'),
      isHostname('xn--X'),
      isHostname('xn--bcher-kva'),
    ]).toEqual([true, false, false, true]);
  });
});

describe('int64 (validate-r4 annot.mjs)', () => {
  it('accepts integers in [-2^63, 2^63) as parsed numbers and refuses 2^63, which 2^63 - 1 parses to', () => {
    const validator = createValidator({ type: 'object', properties: { a: { type: 'number', format: 'int64' } } });
    const keywords = (value: unknown) => {
      const result = validator.validate({ a: value });
      return result.ok ? [] : result.issues.map((issue) => issue.keyword);
    };
    for (const value of [0, -(2 ** 63), 2 ** 63 - 1024, 2 ** 53 + 2, -1])
      expect(keywords(value), String(value)).toEqual([]);
    for (const value of [2 ** 63, JSON.parse('9223372036854775807'), -(2 ** 63) - 2048, 1e300, 1.5])
      expect(keywords(value), String(value)).toEqual(['format']);
  });
});
