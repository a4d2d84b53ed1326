import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLenientJson } from './parse-lenient-json.js';

describe('parseLenientJson', () => {
  it('labels strict parses, including arrays and scalars', () => {
    expect(parseLenientJson('{"a":1}')).toEqual({ value: { a: 1 }, repair: 'strict' });
    expect(parseLenientJson(' [1,2] ')).toEqual({ value: [1, 2], repair: 'strict' });
    expect(parseLenientJson('"text"')).toEqual({ value: 'text', repair: 'strict' });
    expect(parseLenientJson('null')).toEqual({ value: null, repair: 'strict' });
  });

  it('labels a removed code fence', () => {
    expect(parseLenientJson('```json\n{"a":1}\n```')).toEqual({ value: { a: 1 }, repair: 'code_fence' });
    expect(parseLenientJson('```\n[1]\n```')).toEqual({ value: [1], repair: 'code_fence' });
  });

  it('slices from the first opener to the last closer', () => {
    expect(parseLenientJson('Here you go: {"a":1} hope it helps')).toEqual({ value: { a: 1 }, repair: 'slice' });
    expect(parseLenientJson('Result: [1, 2]!')).toEqual({ value: [1, 2], repair: 'slice' });
    expect(parseLenientJson('```json\nSure: {"a":1}\n```')).toEqual({ value: { a: 1 }, repair: 'slice' });
  });

  it('falls back to the relaxed object ladder, on the text then on the slice', () => {
    expect(parseLenientJson('{a: 1, b: [2,],}')).toEqual({ value: { a: 1, b: [2] }, repair: 'relaxed' });
    expect(parseLenientJson('Answer: {name: "x"} done')).toEqual({ value: { name: 'x' }, repair: 'relaxed' });
  });

  it('closes a truncated string and the owed closers', () => {
    expect(parseLenientJson('{"a": "trunc')).toEqual({ value: { a: 'trunc' }, repair: 'closed' });
    expect(parseLenientJson('[1, 2, 3')).toEqual({ value: [1, 2, 3], repair: 'closed' });
    expect(parseLenientJson('{"a": ["x", "y')).toEqual({ value: { a: ['x', 'y'] }, repair: 'closed' });
    expect(parseLenientJson('Result: {"a": {"b": "c')).toEqual({ value: { a: { b: 'c' } }, repair: 'closed' });
  });

  it('drops trailing characters when closing alone does not parse', () => {
    expect(parseLenientJson('[1, 2,')).toEqual({ value: [1, 2], repair: 'closed' });
    expect(parseLenientJson('{"a": "x\\')).toEqual({ value: { a: 'x' }, repair: 'closed' });
    expect(parseLenientJson('{"a": 1, "b": tr')).toEqual({ value: { a: 1 }, repair: 'closed' });
    expect(parseLenientJson('[1, {"k": nul')).toEqual({ value: [1, {}], repair: 'closed' });
  });

  it('drops at most 64 trailing characters', () => {
    const within = `[1, ${'x'.repeat(60)}`;
    expect(parseLenientJson(within)).toEqual({ value: [1], repair: 'closed' });
    const beyond = `[1, ${'x'.repeat(70)}`;
    expect(parseLenientJson(beyond)).toBeUndefined();
  });

  it('closes nesting up to 512 levels and refuses deeper, so 1 MB of openers costs no seconds', () => {
    const nested = (depth: number) => '['.repeat(depth);
    const closed = parseLenientJson(`${nested(512)}1`);
    expect(closed?.repair).toBe('closed');
    let value = closed?.value;
    for (let level = 0; level < 512; level++) value = (value as unknown[])[0];
    expect(value).toBe(1);
    expect(parseLenientJson(`${nested(513)}1`)).toBeUndefined();
    expect(parseLenientJson(nested(1_000_000))).toBeUndefined();
  });

  it('refuses a stray closer, complete-but-invalid text and garbage', () => {
    expect(parseLenientJson('[1, 2]] , [3')).toBeUndefined();
    expect(parseLenientJson('{"a": [1}, "b": "x')).toBeUndefined();
    expect(parseLenientJson("{'a':'b'}")).toBeUndefined();
    expect(parseLenientJson('no json here')).toBeUndefined();
    expect(parseLenientJson('')).toBeUndefined();
  });

  it('returns any valid JSON unchanged with the strict label', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseLenientJson(text)).toEqual({ value: JSON.parse(text), repair: 'strict' });
      }),
    );
  });

  it('never throws', () => {
    const fragments = fc
      .array(fc.constantFrom('{', '}', '[', ']', '"', "'", ':', ',', '\\', 'a', '1', '<|"|>', '```', ' '), {
        maxLength: 40,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fragments), (text) => {
        parseLenientJson(text);
      }),
      { numRuns: 2000 },
    );
  });
});
