import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createPformatRegistry } from './create-pformat-registry.js';
import { parsePformatBody } from './parse-pformat-body.js';

const tools: ToolSchema[] = [
  {
    name: 'search',
    description: 'Search the web.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer' },
        ratio: { type: 'number' },
        safe: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        filter: { type: 'object' },
      },
      required: ['query'],
    },
  },
  { name: 'clock', description: 'Current time.', parameters: { type: 'object', properties: {} } },
  { name: 'send-email', description: '', parameters: { properties: { to: { type: 'string' } } } },
];
// search slots: 0 query, 1 filter, 2 limit, 3 ratio, 4 safe, 5 tags
const registry = createPformatRegistry(tools);
const parse = (body: string) => parsePformatBody(body, registry);

describe('parsePformatBody', () => {
  it('reads slot pairs in parameter order', () => {
    expect(parse('search[0|rust agents|2|5]')).toEqual({
      name: 'search',
      arguments: { query: 'rust agents', limit: 5 },
    });
  });

  it('ignores surrounding whitespace and a space before the bracket', () => {
    expect(parse('  \n search [0|x]\n ')).toEqual({ name: 'search', arguments: { query: 'x' } });
  });

  it('keeps value whitespace and line breaks verbatim for strings', () => {
    expect(parse('search[0|  two\nlines  ]')?.arguments).toEqual({ query: '  two\nlines  ' });
  });

  it('reads `name[]` as no arguments, for tools with or without parameters', () => {
    expect(parse('clock[]')).toEqual({ name: 'clock', arguments: {} });
    expect(parse('search[]')).toEqual({ name: 'search', arguments: {} });
  });

  it('removes a key when its value is empty (retraction)', () => {
    expect(parse('search[0|x|2|5|2|]')?.arguments).toEqual({ query: 'x' });
    expect(parse('search[0|]')?.arguments).toEqual({});
  });

  it('lets the last write win on repeated slots', () => {
    expect(parse('search[0|first|0|second]')?.arguments).toEqual({ query: 'second' });
    expect(parse('search[2||2|7]')?.arguments).toEqual({ limit: 7 });
  });

  it('decodes only the three escapes and keeps other backslashes', () => {
    expect(parse('search[0|a\\|b\\]c\\\\d]')?.arguments).toEqual({ query: 'a|b]c\\d' });
    expect(parse('search[0|C:\\path\\n]')?.arguments).toEqual({ query: 'C:\\path\\n' });
    expect(parse('search[0|\\d+\\[x]')?.arguments).toEqual({ query: '\\d+\\[x' });
  });

  it('treats an escaped pipe as part of the value, not a separator', () => {
    expect(parse('search[0|a\\|2|2|5]')?.arguments).toEqual({ query: 'a|2', limit: 5 });
    expect(parse('search[0|a\\|2|5]')).toBeUndefined();
  });

  describe('refuses the whole call', () => {
    it.each([
      ['an odd number of parts', 'search[0|x|2]'],
      ['a trailing separator', 'search[0|x|]'],
      ['a lone index', 'search[0]'],
      ['a non-numeric index', 'search[query|x]'],
      ['a negative index', 'search[-1|x]'],
      ['a fractional index', 'search[1.0|x]'],
      ['an empty index', 'search[|x]'],
      ['an out-of-range index', 'search[6|x]'],
      ['any index on a tool without parameters', 'clock[0|x]'],
      ['an unknown tool', 'lookup[0|x]'],
      ['a tool name in another case', 'Search[0|x]'],
      ['a name with other characters', 'functions.search[0|x]'],
      ['a registered name that is not a P-Format name', 'send-email[0|a@b.c]'],
      ['no name', '[0|x]'],
      ['no closing bracket', 'search[0|x'],
      ['an escaped final bracket', 'search[0|x\\]'],
      ['text after the closing bracket', 'search[0|x] now'],
      ['an unescaped bracket inside', 'search[0|a]b]'],
      ['two calls in one body', 'search[0|x]\nsearch[0|y]'],
      ['prose before the call', 'Sure: search[0|x]'],
      ['JSON', '{"name":"search","arguments":{"query":"x"}}'],
      ['an empty body', ''],
    ])('with %s', (_, body) => {
      expect(parse(body)).toBeUndefined();
    });
  });

  describe('coerces by declared type', () => {
    it('makes integers only from integer text', () => {
      expect(parse('search[0|q|2|5]')?.arguments.limit).toBe(5);
      expect(parse('search[0|q|2| -12 ]')?.arguments.limit).toBe(-12);
      expect(parse('search[0|q|2|5.0]')?.arguments.limit).toBe('5.0');
      expect(parse('search[0|q|2|1e3]')?.arguments.limit).toBe('1e3');
      expect(parse('search[0|q|2|five]')?.arguments.limit).toBe('five');
    });

    it('parses decimal numbers, keeping text that is not one', () => {
      expect(parse('search[0|q|3|0.25]')?.arguments.ratio).toBe(0.25);
      expect(parse('search[0|q|3|5]')?.arguments.ratio).toBe(5);
      expect(parse('search[0|q|3|-1.5e-3]')?.arguments.ratio).toBe(-0.0015);
      expect(parse('search[0|q|3|1e999]')?.arguments.ratio).toBe('1e999');
      expect(parse('search[0|q|3|0x10]')?.arguments.ratio).toBe('0x10');
      expect(parse('search[0|q|3|NaN]')?.arguments.ratio).toBe('NaN');
    });

    it.each([
      ['true', true],
      ['TRUE', true],
      ['Yes', true],
      ['1', true],
      ['false', false],
      ['No', false],
      ['0', false],
      ['maybe', 'maybe'],
    ])('reads boolean text %s as %j', (text, expected) => {
      expect(parse(`search[0|q|4|${text}]`)?.arguments.safe).toBe(expected);
    });

    it('decodes JSON of the right shape for arrays and objects', () => {
      expect(parse('search[0|q|5|["a","b"\\]]')?.arguments.tags).toEqual(['a', 'b']);
      expect(parse('search[0|q|1|{"year":2024}]')?.arguments.filter).toEqual({ year: 2024 });
      expect(parse('search[0|q|5|{"a":1}]')?.arguments.tags).toBe('{"a":1}');
      expect(parse('search[0|q|1|not json]')?.arguments.filter).toBe('not json');
    });

    it('never converts string parameters', () => {
      expect(parse('search[0|5]')?.arguments.query).toBe('5');
      expect(parse('search[0|true]')?.arguments.query).toBe('true');
    });
  });

  it('stores a parameter named __proto__ as an own key', () => {
    const odd = createPformatRegistry([
      { name: 'odd', description: '', parameters: { properties: { ['__proto__']: { type: 'string' } } } },
    ]);
    const call = parsePformatBody('odd[0|x]', odd);
    expect(Object.keys(call?.arguments ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(call?.arguments)).toBe(Object.prototype);
  });

  it('never throws and terminates on arbitrary text', () => {
    const grammar = fc.string({
      unit: fc.constantFrom('search', 'clock', '[', ']', '|', '\\', '0', '2', '5', 'x', ' ', '\n', '{', '"'),
    });
    fc.assert(
      fc.property(fc.oneof(fc.string(), grammar), (body) => {
        const call = parse(body);
        expect(call === undefined || typeof call.arguments === 'object').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('runs in linear time on large adversarial bodies', () => {
    const bodies = [
      `search[${'0|x|'.repeat(50_000)}0|y]`,
      `search[${'\\'.repeat(200_000)}]`,
      `search[${'['.repeat(200_000)}`,
      `search${'['.repeat(200_000)}]`,
    ];
    for (const body of bodies) {
      parse(body);
    }
    expect(parse(`search[${'0|x|'.repeat(50_000)}0|y]`)?.arguments).toEqual({ query: 'y' });
  });
});
