import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractJsonValues } from './extract-json-values.js';
import { scanJsonValue } from './scan-json-value.js';

function acceptsWhole(text: string): boolean {
  const scan = scanJsonValue(text, 0);
  return scan.kind === 'complete' && /^[ \t\n\r]*$/.test(text.slice(scan.end));
}

describe('scanJsonValue', () => {
  it('accepts exactly what JSON.parse accepts for containers', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify({ value });
        expect(acceptsWhole(text)).toBe(true);
        expect(acceptsWhole(JSON.stringify({ value }, null, 2))).toBe(true);
      }),
      { numRuns: 500 },
    );
    const containerish = fc
      .array(
        fc.constantFrom(
          '{',
          '}',
          '[',
          ']',
          '"',
          ':',
          ',',
          'a',
          '1',
          '-',
          '.',
          'e',
          'true',
          'null',
          '\\',
          '\\u00e9',
          ' ',
          '\n',
          '"k"',
        ),
        { maxLength: 20 },
      )
      .map((pieces) => `{${pieces.join('')}`);
    fc.assert(
      fc.property(containerish, (text) => {
        let strict = true;
        try {
          JSON.parse(text);
        } catch {
          strict = false;
        }
        expect(acceptsWhole(text)).toBe(strict);
      }),
      { numRuns: 3000 },
    );
  });

  it('tells a prefix that may still complete from text that is already broken', () => {
    expect(scanJsonValue('{"a": [1, 2', 0).kind).toBe('incomplete');
    expect(scanJsonValue('{"a": "tru', 0).kind).toBe('incomplete');
    expect(scanJsonValue('{"a": tru', 0).kind).toBe('incomplete');
    const broken = scanJsonValue('{"a": 1 "b"}', 0);
    expect(broken).toMatchObject({ kind: 'invalid', at: 8 });
    expect(scanJsonValue('{"a": {"b": 1}, oops', 0)).toMatchObject({ kind: 'invalid', completed: [[6, 14]] });
  });

  it('handles deep nesting without recursion', () => {
    const depth = 200_000;
    expect(acceptsWhole(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBe(true);
    expect(scanJsonValue('['.repeat(depth), 0).kind).toBe('incomplete');
  });
});

describe('extractJsonValues', () => {
  it('finds every value in order and resumes where a broken one stopped', () => {
    const values = extractJsonValues('before {"a":1} [1,2] {"b": oops {"c":3} after').map((span) => span.value);
    expect(values).toEqual([{ a: 1 }, [1, 2], { c: 3 }]);
    expect(extractJsonValues('{not json} [still bad]')).toEqual([]);
    expect(extractJsonValues('{"x": {"name": "keep"}, broken').map((span) => span.value)).toEqual([{ name: 'keep' }]);
  });

  it('stops after the requested count', () => {
    expect(extractJsonValues('{} {} {}', 0, 8, 2)).toHaveLength(2);
  });
});
