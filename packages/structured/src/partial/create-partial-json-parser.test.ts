import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPartialJsonParser } from './create-partial-json-parser.js';

/** True when `partial` could grow into `final`: see `PartialJsonParser.value`. */
function isPrefixConsistent(partial: unknown, final: unknown): boolean {
  if (partial === undefined) return true;
  if (typeof partial === 'string') return typeof final === 'string' && final.startsWith(partial);
  if (Array.isArray(partial)) {
    if (!Array.isArray(final) || partial.length > final.length) return false;
    return partial.every((entry, index) =>
      index < partial.length - 1
        ? Object.is(JSON.stringify(entry), JSON.stringify(final[index]))
        : isPrefixConsistent(entry, final[index]),
    );
  }
  if (partial !== null && typeof partial === 'object') {
    if (final === null || typeof final !== 'object' || Array.isArray(final)) return false;
    return Object.entries(partial).every(
      ([key, entry]) => Object.hasOwn(final, key) && isPrefixConsistent(entry, (final as Record<string, unknown>)[key]),
    );
  }
  return Object.is(partial, final);
}

function split(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let at = 0;
  for (const point of points) {
    pieces.push(text.slice(at, point));
    at = point;
  }
  pieces.push(text.slice(at));
  return pieces;
}

function parseInPieces(pieces: readonly string[]) {
  const parser = createPartialJsonParser();
  const partials: unknown[] = [];
  for (const piece of pieces) {
    parser.push(piece);
    partials.push(structuredClone(parser.value));
  }
  return { final: parser.end(), partials };
}

const jsonText = fc.oneof(
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(value, null, 2)),
  fc.string({ unit: 'binary' }).map((value) => JSON.stringify({ text: value, list: [value, 1.5e-3, -0, true] })),
);

describe('createPartialJsonParser', () => {
  it('ends with the JSON.parse value for any text and any split', () => {
    fc.assert(
      fc.property(jsonText, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const { final } = parseInPieces(split(text, cuts));
        expect(final).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('only ever shows prefix-consistent partial values', () => {
    fc.assert(
      fc.property(jsonText, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const expected = JSON.parse(text);
        const { partials } = parseInPieces(split(text, cuts));
        for (const partial of partials) expect(isPrefixConsistent(partial, expected)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('grows an object one character at a time', () => {
    const text = '{"name":"Ada","tags":["x","yz"],"age":36,"ok":true,"nested":{"n":null}}';
    const seen = new Set<string>();
    const parser = createPartialJsonParser();
    for (const char of text) {
      parser.push(char);
      seen.add(JSON.stringify(parser.value));
    }
    expect(seen).toContain('{"name":"Ad"}');
    expect(seen).toContain('{"name":"Ada","tags":["x","y"]}');
    expect(seen).not.toContain('{"name":"Ada","tags":["x","yz"],"age":3}');
    expect(seen).toContain('{"name":"Ada","tags":["x","yz"],"age":36}');
    expect(parser.done).toBe(true);
    expect(parser.end()).toEqual(JSON.parse(text));
  });

  it('decodes escapes split across pieces', () => {
    const parser = createPartialJsonParser();
    for (const piece of ['["a\\', 'u00', 'e9\\', 'n', '\\ud83d', '\\ude00"]']) parser.push(piece);
    expect(parser.end()).toEqual(['a\u00e9\n\u{1F600}']);
  });

  it('finishes a bare number or literal only at the end', () => {
    const number = createPartialJsonParser();
    number.push('12');
    expect(number.value).toBeUndefined();
    number.push('3');
    expect(number.end()).toBe(123);
    const literal = createPartialJsonParser();
    literal.push('nul');
    literal.push('l');
    expect(literal.end()).toBeNull();
  });

  it('keeps a __proto__ key as an own property, like JSON.parse', () => {
    const parser = createPartialJsonParser();
    parser.push('{"__proto__":{"polluted":true}}');
    const value = parser.end() as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['{"a":1,}', '[1 2]', '{"a" 1}', '01', '{"a":tru}', '[1]]', '{"a":1} x', '"\\x"'])('rejects %s', (text) => {
    const parser = createPartialJsonParser();
    parser.push(text);
    expect(() => parser.end()).toThrow(SyntaxError);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('accepts raw control characters inside strings (models write raw newlines), unlike JSON.parse', () => {
    const parser = createPartialJsonParser();
    parser.push('{"text":"line one\nline\ttwo"}');
    expect(parser.end()).toEqual({ text: 'line one\nline\ttwo' });
  });

  it('reports an unfinished value at the end', () => {
    const parser = createPartialJsonParser();
    parser.push('{"a":[1,2');
    expect(parser.value).toEqual({ a: [1] });
    expect(() => parser.end()).toThrow(/unexpected end/);
  });

  it('costs time linear in the input however it is split', () => {
    const text = JSON.stringify({ items: Array.from({ length: 20_000 }, (_, n) => ({ id: n, name: `item ${n}` })) });
    const parser = createPartialJsonParser();
    const started = performance.now();
    for (let at = 0; at < text.length; at += 3) parser.push(text.slice(at, at + 3));
    const elapsed = performance.now() - started;
    expect(parser.end()).toEqual(JSON.parse(text));
    // ~600 KB in 3-character pieces: a quadratic parser would take minutes.
    expect(elapsed).toBeLessThan(2_000);
  });
});
