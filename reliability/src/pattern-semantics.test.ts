import { createValidator, SchemaCompileFailure } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.PATTERN_SEMANTICS_RUNS ?? propertyRuns(400));

/**
 * Pattern pieces whose meaning RE2 and ECMA-262 used to disagree on (whitespace classes, `.`, a
 * `[` inside a class), plus plain ones. A pattern is a sequence of pieces, optionally anchored.
 */
const piece = fc.constantFrom(
  '\\s',
  '\\S',
  '.',
  '[^\\s]',
  '[\\S]',
  '[\\s\\S]',
  '[.]',
  '[[]',
  '\\d',
  '\\w',
  '\\b',
  'a',
  '[a-z]',
  '[^a]',
  '(?:a|\\s)',
  '\\.',
  '\\u00a0',
  '\\u{1F600}',
);
const quantifier = fc.constantFrom('', '*', '+', '?', '{2}', '*?');
const pattern = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(piece, quantifier), { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([start, parts, end]) => `${start ? '^' : ''}${parts.map(([p, q]) => p + q).join('')}${end ? '$' : ''}`);
/** Characters on both sides of every class boundary that mattered. */
const char = fc.constantFrom(
  'a',
  'b',
  'Z',
  '0',
  '_',
  '.',
  '[',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u00a0',
  '\u1680',
  '\u2007',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u3000',
  '\ufeff',
  '\u200b',
  'é',
  '\u212a',
  '\u{1F600}',
);
const input = fc.array(char, { maxLength: 8 }).map((chars) => chars.join(''));

describe('patterns keep their ECMA-262 meaning on the linear-time engine', () => {
  it('agrees with JavaScript (the u flag) on every generated pattern and string', () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (source, strings) => {
        let ecma: RegExp;
        try {
          ecma = new RegExp(source, 'u');
        } catch {
          // Not ECMA-262 syntax (`\b{2}`): refused at definition, never compiled another way.
          expect(() => createValidator({ type: 'string', pattern: source })).toThrow(SchemaCompileFailure);
          return;
        }
        const validator = createValidator({ type: 'string', pattern: source });
        for (const value of strings)
          expect([source, value, validator.test(value)]).toEqual([source, value, ecma.test(value)]);
        const keys = createValidator({ type: 'object', propertyNames: { pattern: source } });
        for (const value of strings) expect(keys.test({ [value]: 1 })).toBe(ecma.test(value));
      }),
      { numRuns: RUNS },
    );
  });
});
