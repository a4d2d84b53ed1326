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
