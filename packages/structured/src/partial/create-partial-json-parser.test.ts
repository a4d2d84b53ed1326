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

/**
 * The reference: re-parses the whole prefix from scratch (recursive descent) and returns the value
 * `PartialJsonParser.value` must show for it. Containers show once opened; strings show the text
 * decoded so far (an unfinished escape is left out); keys, numbers and literals show only once a
 * character after them has arrived.
 */
function reparsePrefix(prefix: string): unknown {
  let i = 0;
  const skipSpace = () => {
    while (i < prefix.length && ' \n\r\t'.includes(prefix[i] as string)) i += 1;
  };
  const readString = (): { text: string; complete: boolean } => {
    i += 1; // the opening quote
    let text = '';
    while (i < prefix.length) {
      const char = prefix[i] as string;
      if (char === '"') {
        i += 1;
        return { text, complete: true };
      }
      if (char !== '\\') {
        text += char;
        i += 1;
        continue;
      }
      const kind = prefix[i + 1];
      if (kind === undefined) break;
      if (kind === 'u') {
        if (i + 6 > prefix.length) break;
        text += String.fromCharCode(Number.parseInt(prefix.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        text += JSON.parse(`"\\${kind}"`) as string;
        i += 2;
      }
    }
    i = prefix.length;
    return { text, complete: false };
  };
  /** `shown` is false when nothing of the value may be shown yet. */
  const readValue = (): { shown: boolean; value?: unknown; complete: boolean } => {
    skipSpace();
    if (i >= prefix.length) return { shown: false, complete: false };
    const char = prefix[i] as string;
    if (char === '"') {
      const { text, complete } = readString();
      return { shown: true, value: text, complete };
    }
    if (char === '[' || char === '{') {
      i += 1;
      const isArray = char === '[';
      const container: Record<string, unknown> | unknown[] = isArray ? [] : {};
      const open = { shown: true, value: container, complete: false };
      for (;;) {
        skipSpace();
        if (i >= prefix.length) return open;
        if (prefix[i] === (isArray ? ']' : '}')) {
          i += 1;
          return { shown: true, value: container, complete: true };
        }
        if (prefix[i] === ',') i += 1;
        let key = '';
        if (!isArray) {
          skipSpace();
          if (i >= prefix.length) return open;
          const read = readString();
          if (!read.complete) return open;
          key = read.text;
          skipSpace();
          if (i >= prefix.length) return open;
          i += 1; // the colon
        }
        const entry = readValue();
        if (entry.shown) {
          if (Array.isArray(container)) container.push(entry.value);
          else
            Object.defineProperty(container, key, {
              value: entry.value,
              writable: true,
              enumerable: true,
              configurable: true,
            });
        }
        if (!entry.complete) return open;
      }
    }
    const token = /^[-+.\deEa-z]*/.exec(prefix.slice(i))?.[0] ?? '';
    i += token.length;
    if (i >= prefix.length) return { shown: false, complete: false };
    return { shown: true, value: JSON.parse(token), complete: true };
  };
  const root = readValue();
  return root.shown ? root.value : undefined;
}

/** Writes every non-ASCII character of a JSON text as a `\u` escape (still the same JSON value). */
const escapeNonAscii = (text: string): string =>
  text.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Arrays and objects nested `depth` deep around `leaf`. */
const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let level = 0; level < depth; level += 1)
    value = level % 2 === 0 ? [value, level] : { [`k${level}`]: value, n: -level };
  return value;
};

/** Lists of records over a few keys (some prefixes of others, one escaped): the parser reuses key strings between records. */
const recordList = (maxLength: number) =>
  fc
    .array(
      fc.dictionary(
        fc.constantFrom('a', 'ab', 'abc', 'b', 'a"b', 'é', '', 'n'),
        fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant({ ab: [1] })),
      ),
      { maxLength },
    )
    .map((records) => JSON.stringify({ records, tail: records.slice(0, 2) }));

const documentText = fc.oneof(
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(value, null, 2)),
  fc.jsonValue().map((value) => escapeNonAscii(JSON.stringify(value))),
  fc.string({ unit: 'binary' }).map((text) => escapeNonAscii(JSON.stringify({ text, list: [text, '\\"\n'] }))),
  fc
    .tuple(
      fc.integer({ min: 1, max: 80 }),
      fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ unit: 'binary' })),
    )
    .map(([depth, leaf]) => JSON.stringify(nested(depth, leaf))),
  recordList(3),
  fc.constantFrom(
    '[-0, 0, -12.5e-3, 1.5E+30, 123456789012345678, 0.000001, 1e5, -7]',
    '{"a":"\\ud83d\\ude00 \\u00e9\\\\\\"\\/\\b\\f\\n\\r\\t","b":[true,false,null],"c":{"":{}}}',
    ' { "spaced" : [ 1 , "two" , { "three" : null } ] , "e" : 2.5 } ',
    '"just a string with \\u00e9"',
  ),
);

const jsonText = fc.oneof(
  recordList(8),
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

  it('shows after every piece exactly what re-parsing everything received so far shows', () => {
    fc.assert(
      fc.property(documentText, fc.array(fc.nat(), { maxLength: 40 }), fc.boolean(), (text, cuts, everyCharacter) => {
        const pieces = everyCharacter ? [...text] : split(text, cuts);
        const parser = createPartialJsonParser();
        let received = '';
        for (const piece of pieces) {
          parser.push(piece);
          received += piece;
          expect(parser.error).toBeUndefined();
          expect(structuredClone(parser.value)).toEqual(reparsePrefix(received));
        }
        expect(parser.end()).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('reads every number exactly as JSON.parse does', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 17n }), fc.nat({ max: 18 }))
      .map(([negative, digits, point]) => {
        const written = digits.toString().padStart(point + 1, '0');
        const at = written.length - point;
        return `${negative ? '-' : ''}${written.slice(0, at)}${point > 0 ? `.${written.slice(at)}` : ''}`;
      });
    const number = fc.oneof(
      decimal,
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
      fc.constantFrom('-0', '-0.0', '0.1', '0.30000000000000004', '9007199254740993', '1e22', '123456789012345.6'),
    );
    fc.assert(
      fc.property(
        fc.array(number, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (numbers, cuts) => {
          const text = `[${numbers.join(',')}]`;
          const { final } = parseInPieces(split(text, cuts));
          const expected = JSON.parse(text) as number[];
          for (const [index, value] of (final as number[]).entries())
            expect(Object.is(value, expected[index])).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([
    '[{"ab":1},{"abc":2},{"a":3},{"ab":4,"x":5},{"ab":6}]',
    '[{"a\\u0062":1},{"ab":2},{"a\\"b":3},{"a\\"b":4}]',
    '{"a":{"b":1,"c":2},"d":[{"b":3,"c":4},{"c":5,"b":6}]}',
    '[{"__proto__":1},{"__proto__":{"x":2}}]',
  ])('reuses key strings between records only where the text writes the same key: %s', (text) => {
    for (const size of [1, 3, text.length]) {
      const parser = createPartialJsonParser();
      for (let at = 0; at < text.length; at += size) parser.push(text.slice(at, at + size));
      expect(parser.end()).toEqual(JSON.parse(text));
    }
  });

  it('does not read a key as the escaped key of the record before', () => {
    // The first record's key is `a\` (written `a\\`). The second writes `a\":1}]`, an unfinished
    // key; read as the first record's key, it would end as `[{…},{"a\\":1}]`.
    const text = '[{"a\\\\":1},{"a\\":1}]';
    const parser = createPartialJsonParser();
    parser.push(text);
    expect(() => parser.end()).toThrow(SyntaxError);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
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

  it('parses a large document fed in 3-character pieces (its cost is measured in bench/, workload 4)', () => {
    const text = JSON.stringify({ items: Array.from({ length: 20_000 }, (_, n) => ({ id: n, name: `item ${n}` })) });
    const parser = createPartialJsonParser();
    for (let at = 0; at < text.length; at += 3) parser.push(text.slice(at, at + 3));
    expect(parser.end()).toEqual(JSON.parse(text));
  });
});
