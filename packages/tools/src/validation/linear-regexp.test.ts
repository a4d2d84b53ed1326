import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { defineTool } from '../tool/define-tool.js';
import { checkSchema, createValidator, SchemaCompileFailure } from './create-validator.js';

describe('linear-time patterns', () => {
  it('validates a catastrophic pattern against a near-miss input, with the right result', () => {
    const validator = createValidator({ type: 'object', properties: { note: { type: 'string', pattern: '^(a+)+$' } } });
    // On a backtracking engine this input takes about 2^32 steps.
    const result = validator.validate({ note: `${'a'.repeat(32)}!` });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues).toEqual([expect.objectContaining({ path: '/note', keyword: 'pattern' })]);
    expect(validator.validate({ note: 'a'.repeat(32) }).ok).toBe(true);
  });

  it('runs patternProperties keys on the same engine', () => {
    const validator = createValidator({
      type: 'object',
      patternProperties: { '^(a|aa)+$': { type: 'number' } },
      additionalProperties: false,
    });
    expect(validator.validate({ [`${'a'.repeat(40)}b`]: 1 }).ok).toBe(false);
    expect(validator.validate({ aaaa: 1 }).ok).toBe(true);
    expect(validator.validate({ aaaa: 'x' }).ok).toBe(false);
  });

  it.each([
    ['^\\d{3}-\\d{4}$', '555-1234', '555-12345'],
    ['^\\p{L}+$', 'héllo', 'h3llo'],
    ['^[\\u0041-\\u005A]+$', 'ABC', 'abc'],
    ['^(?<year>\\d{4})-\\d{2}$', '2024-01', '24-01'],
    ['^[^/]+/x$', 'a/x', 'a/b/y'],
    ['colou?r', 'the color red', 'the colr'],
  ])('keeps ECMA-262 meaning for %s', (pattern, matching, failing) => {
    const validator = createValidator({ type: 'string', pattern });
    expect(validator.validate(matching).ok).toBe(true);
    expect(validator.validate(failing).ok).toBe(false);
  });

  it.each([
    ['lookahead', { type: 'string', pattern: '^(?=.*\\d)\\w+$' }, '^(?=.*\\\\d)\\\\w+$'],
    ['a backreference', { type: 'string', pattern: '^(a)\\1$' }, '^(a)\\\\1$'],
    ['lookbehind in patternProperties', { type: 'object', patternProperties: { '(?<!x)y': {} } }, '(?<!x)y'],
    [
      'a nested property pattern',
      { type: 'object', properties: { a: { type: 'array', items: { type: 'string', pattern: '(?!no)' } } } },
      '(?!no)',
    ],
  ])('refuses %s at definition time, naming the pattern', (_label, schema, named) => {
    expect(() => checkSchema(schema)).toThrow(SchemaCompileFailure);
    expect(() => checkSchema(schema)).toThrow(named);
    expect(() => createValidator(schema)).toThrow(SchemaCompileFailure);
  });

  it('refuses a tool whose schema holds an unsupported pattern', () => {
    const define = () =>
      defineTool({
        name: 'lookup',
        description: 'Looks a code up.',
        parameters: { type: 'object', properties: { code: { type: 'string', pattern: '^(?=A)[A-Z]+$' } } },
        execute: () => 'ok',
      });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(/\(\?=A\)\[A-Z\]\+\$/);
  });

  it('does not read a property named `pattern` as the keyword, nor patterns inside data keywords', () => {
    expect(() =>
      checkSchema({
        type: 'object',
        properties: { pattern: { type: 'string' }, b: { enum: [{ pattern: '(?=x)' }] } },
        examples: [{ pattern: '(?=x)' }],
      }),
    ).not.toThrow();
  });
});

// The tester's cases (/tmp/breakers/followups/a2-correct.mjs): RE2 gave these patterns a wider
// meaning than ECMA-262 (JSON Schema's regex dialect), so invalid values were accepted.
describe('ECMA-262 meaning on the linear-time engine', () => {
  /** What JavaScript itself answers, with the `u` flag JSON Schema validators use. */
  const ecma = (pattern: string, input: string): boolean => new RegExp(pattern, 'u').test(input);

  it.each([
    ['^\\S+$', 'a\u00a0b'],
    ['^\\S+$', 'rm\u2028-rf'],
    ['^\\S+$', 'a\ufeffb'],
    ['^[^\\s]+$', 'a\u3000b'],
    ['^[\\S]+$', 'a\u2029b'],
    ['^\\s$', '\u1680'],
    ['^[\\s]$', '\u202f'],
    ['^[^\\S]$', '\u00a0'],
    ['^.+$', 'a\rb'],
    ['^.+$', 'a\u2028b'],
    ['^.$', '\u{1F600}'],
    ['^..$', '\u{1F600}'],
    ['^abc$', 'abc\n'],
    ['^\\w+$', 'é'],
    ['^[\\s\\S]*$', 'any\u2028thing\r'],
    ['^[.]$', 'x'],
    ['^[.]$', '.'],
    ['^[[]$', '['],
    ['^[\\b]$', '\b'],
    ['^[^]$', '\n'],
    ['^a[]b$', 'ab'],
    ['^\\.$', 'x'],
  ])('%s on %j agrees with JavaScript', (pattern, input) => {
    const result = createValidator({ type: 'string', pattern }).validate(input);
    expect(result.ok).toBe(ecma(pattern, input));
  });

  it('agrees with JavaScript on \\s, \\S and . for every BMP code point', () => {
    const space = createValidator({ type: 'string', pattern: '^\\s$' });
    const nonSpace = createValidator({ type: 'string', pattern: '^[\\S]$' });
    const dot = createValidator({ type: 'string', pattern: '^.$' });
    const mismatches: string[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      if (space.test(char) !== /^\s$/u.test(char)) mismatches.push(`\\s ${code.toString(16)}`);
      if (nonSpace.test(char) !== /^[\S]$/u.test(char)) mismatches.push(`\\S ${code.toString(16)}`);
      if (dot.test(char) !== /^.$/u.test(char)) mismatches.push(`. ${code.toString(16)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('applies the same meaning to patternProperties and propertyNames', () => {
    const keys = createValidator({
      type: 'object',
      patternProperties: { '^\\S+$': { type: 'string' } },
      additionalProperties: false,
    });
    expect(keys.validate({ 'a\u00a0b': 'x' }).ok).toBe(false);
    expect(keys.validate({ ab: 'x' }).ok).toBe(true);
    const names = createValidator({ type: 'object', propertyNames: { pattern: '^\\S+$' } });
    expect(names.validate({ 'a\u2029b': 1 }).ok).toBe(false);
    expect(names.validate({ ab: 1 }).ok).toBe(true);
  });

  it.each([
    ['an inline flag', '^(?i)k$'],
    ['a POSIX class', '^[[:alpha:]]+$'],
    ['a quoted run', '\\Qa.b\\E'],
    ['an open-ended count', 'a{,3}'],
  ])('refuses %s, which is not ECMA-262 syntax, with a typed failure', (_label, pattern) => {
    expect(() => checkSchema({ type: 'string', pattern })).toThrow(SchemaCompileFailure);
    expect(() => checkSchema({ type: 'string', pattern })).toThrow(/is not an ECMA-262 regular expression/);
    expect(() => checkSchema({ type: 'object', propertyNames: { pattern } })).toThrow(SchemaCompileFailure);
  });

  it('refuses a named backreference instead of reading it as literal text', () => {
    expect(() => checkSchema({ type: 'string', pattern: '^(?<n>a)\\k<n>$' })).toThrow(/backreferences/);
  });
});
