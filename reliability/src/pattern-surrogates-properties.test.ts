import { createValidator, SchemaCompileFailure } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.PATTERN_SURROGATE_RUNS ?? propertyRuns(300));

/** A code point written as `\uXXXX` (a pair of escapes for an astral one, as JSON Schema authors write them). */
function escaped(code: number): string {
  const unit = (value: number): string => `\\u${value.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x10000) return unit(code);
  const offset = code - 0x10000;
  return unit(0xd800 + (offset >> 10)) + unit(0xdc00 + (offset & 0x3ff));
}

/** Code points around the edges that mattered: astral emoji, lone surrogates, ASCII, Greek. */
const codePoint = fc.constantFrom(0x61, 0x3a9, 0x1f600, 0x1f64f, 0x1f601, 0x10000, 0x10ffff, 0xd83d, 0xde00, 0xdfff);
/** Long Unicode property names JavaScript accepts and RE2 spells short. */
const property = fc.constantFrom(
  'Letter',
  'Uppercase_Letter',
  'Lowercase_Letter',
  'Decimal_Number',
  'Number',
  'Punctuation',
  'Symbol',
  'Other_Symbol',
  'Script=Greek',
  'sc=Latin',
  'General_Category=Letter',
  'gc=Nd',
  'L',
  'Greek',
);
const piece = fc.oneof(
  codePoint.map(escaped),
  fc.tuple(codePoint, codePoint).map(([a, b]) => `[${escaped(a)}${escaped(b)}]`),
  fc.tuple(codePoint, codePoint).map(([a, b]) => `[^${escaped(a)}${escaped(b)}]`),
  fc.tuple(codePoint, codePoint).map(([a, b]) => `[${escaped(Math.min(a, b))}-${escaped(Math.max(a, b))}]`),
  property.map((name) => `\\p{${name}}`),
  property.map((name) => `\\P{${name}}`),
  property.map((name) => `[\\p{${name}}a]`),
  fc.constant('.'),
);
const quantifier = fc.constantFrom('', '*', '+', '?');
const pattern = fc
  .array(fc.tuple(piece, quantifier), { minLength: 1, maxLength: 3 })
  .map((parts) => `^${parts.map(([p, q]) => p + q).join('')}$`);
/** Strings of astral characters, lone surrogates (either half), reversed pairs, letters and digits. */
const char = fc.constantFrom('a', 'Ω', '😀', '🙏', '😁', '\uD83D', '\uDE00', '\u{10000}', '\u{10FFFF}', '7', '٣', '!');
const input = fc.array(char, { maxLength: 4 }).map((chars) => chars.join(''));

describe('escaped surrogate pairs and long property names keep their JavaScript meaning', () => {
  it('agrees with JavaScript (the u flag) on every generated pattern and string', () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (source, strings) => {
        let ecma: RegExp;
        try {
          ecma = new RegExp(source, 'u');
        } catch {
          expect(() => createValidator({ type: 'string', pattern: source })).toThrow(SchemaCompileFailure);
          return;
        }
        const validator = createValidator({ type: 'string', pattern: source });
        for (const value of strings)
          expect([source, value, validator.test(value)]).toEqual([source, value, ecma.test(value)]);
      }),
      { numRuns: RUNS },
    );
  });
});
