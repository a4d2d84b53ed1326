import { describe, expect, it } from 'vitest';
import { createPformatRegistry } from '../pformat/create-pformat-registry.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { type ParseCodeCallOptions, parseCodeCallBody } from './parse-code-call-body.js';

const tools: ToolSchema[] = [
  {
    name: 'search',
    description: '',
    parameters: {
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer' },
        ratio: { type: 'number' },
        filters: { type: 'object' },
      },
      required: ['query'],
    },
  },
  { name: 'clock', description: '', parameters: {} },
  { name: 'echo', description: '', parameters: { properties: { payload: {} } } },
  { name: 'tools.run', description: '', parameters: { properties: { cmd: { type: 'string' } } } },
];
// search order: query, filters, limit, ratio
const registry = createPformatRegistry(tools);
const parse = (body: string, options?: ParseCodeCallOptions) => parseCodeCallBody(body, registry, options);
const single = (body: string) => {
  const calls = parse(body);
  return calls?.length === 1 ? calls[0]?.arguments : undefined;
};

describe('parseCodeCallBody', () => {
  it('reads Python keyword calls', () => {
    expect(parse('search(query="rust agents", limit=5)')).toEqual([
      { name: 'search', arguments: { query: 'rust agents', limit: 5 } },
    ]);
  });

  it('reads the TypeScript single-object form', () => {
    expect(parse('search({query: "rust agents", limit: 5})')).toEqual([
      { name: 'search', arguments: { query: 'rust agents', limit: 5 } },
    ]);
  });

  it('binds positional arguments in P-Format order', () => {
    expect(single('search("q", {"site": "docs.rs"}, 3)')).toEqual({
      query: 'q',
      filters: { site: 'docs.rs' },
      limit: 3,
    });
    expect(single('search("q", limit=3)')).toEqual({ query: 'q', limit: 3 });
  });

  it('reads no arguments', () => {
    expect(parse('clock()')).toEqual([{ name: 'clock', arguments: {} }]);
    expect(single('search( )')).toEqual({});
  });

  it.each([
    'await search(query="x")',
    'result = search(query="x")',
    'result = await search(query="x")',
    'const result = await search({query: "x"})',
    'let r = search("x")',
    'var r=search("x");',
    'functions.search(query="x")',
    'await tools.api.search("x")',
    'search (query = "x")',
    '  search(query="x")  ',
  ])('accepts the prefixes and spacing of %s', (body) => {
    expect(single(body)).toEqual({ query: 'x' });
  });

  it('prefers a registered dotted name over its last segment', () => {
    expect(parse('tools.run(cmd="ls")')).toEqual([{ name: 'tools.run', arguments: { cmd: 'ls' } }]);
  });

  it('reads a tool named like a keyword as a call, and the keyword before another call as a keyword', () => {
    const keywordTools = createPformatRegistry(
      ['let', 'const', 'var', 'await'].map((name) => ({ name, description: '', parameters: {} })),
    );
    for (const name of ['let', 'const', 'var', 'await'])
      expect(parseCodeCallBody(`${name} ({})`, keywordTools)).toEqual([{ name, arguments: {} }]);
    const both = createPformatRegistry([...tools, { name: 'let', description: '', parameters: {} }]);
    expect(parseCodeCallBody('let x = await search("a")\nlet()', both)).toEqual([
      { name: 'search', arguments: { query: 'a' } },
      { name: 'let', arguments: {} },
    ]);
  });

  it('reads several statements as several calls, in order', () => {
    const body = '\nsearch(query="a")\n\nclock();  ;search("b", limit=2)\n';
    expect(parse(body)).toEqual([
      { name: 'search', arguments: { query: 'a' } },
      { name: 'clock', arguments: {} },
      { name: 'search', arguments: { query: 'b', limit: 2 } },
    ]);
  });

  it('lets arguments span lines and skips comments', () => {
    const body = '# look it up\nsearch(\n  query="x",  # the text\n  limit=2,\n)  // done';
    expect(single(body)).toEqual({ query: 'x', limit: 2 });
  });

  describe('literals', () => {
    it.each([
      ['"double"', 'double'],
      ["'single'", 'single'],
      ['"""triple\n"quoted"\n"""', 'triple\n"quoted"\n'],
      ["'''it's'''", "it's"],
      ['`back{tick}`', 'back{tick}'],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: model text under test
      ['`cost \\${5}`', 'cost ${5}'],
      ['r"C:\\new\\d+"', 'C:\\new\\d+'],
      ['R"\\"q"', '\\"q'],
      ['u"plain"', 'plain'],
      ['"tab\\tnl\\nq\\"bs\\\\"', 'tab\tnl\nq"bs\\'],
      ['"\\x41\\u00e9\\u{1F600}\\U0001F600\\101"', 'Aé😀😀A'],
      ['"keep\\d"', 'keep\\d'],
      ['"line\\\ncontinued"', 'linecontinued'],
      ['"\\ud83d\\ude00"', '😀'],
      ['""', ''],
    ])('reads the string %s', (literal, expected) => {
      expect(single(`search(${literal})`)).toEqual({ query: expected });
    });

    it.each([
      ['5', 5],
      ['-5', -5],
      ['+5', 5],
      ['2.5', 2.5],
      ['-.5', -0.5],
      ['1e3', 1000],
      ['1.5E-2', 0.015],
      ['1_000', 1000],
    ])('reads the number %s', (literal, expected) => {
      expect(single(`search("q", ratio=${literal})`)).toEqual({ query: 'q', ratio: expected });
    });

    it('makes integers only from integer text', () => {
      expect(single('search("q", limit=5)')).toEqual({ query: 'q', limit: 5 });
      expect(single('search("q", limit=5.0)')).toEqual({ query: 'q', limit: '5.0' });
      expect(single('search("q", limit=1e2)')).toEqual({ query: 'q', limit: '1e2' });
      expect(single('search({query: "q", limit: 5.0})')).toEqual({ query: 'q', limit: '5.0' });
      expect(single('search("q", ratio=5.0)')).toEqual({ query: 'q', ratio: 5 });
    });

    it('reads booleans, null and nested lists and dicts with trailing commas', () => {
      const body = 'echo([True, false, None, null, [1, [2,],], {"a": {"b": [true,],},}, {c: False, "d": None},])';
      expect(single(body)).toEqual({
        payload: [true, false, null, null, [1, [2]], { a: { b: [true] } }, { c: false, d: null }],
      });
    });

    it('lets the last duplicate key win', () => {
      expect(single('echo({"a": 1, "a": 2})')).toEqual({ payload: { a: 2 } });
    });
  });

  describe('None and null', () => {
    it('omit a top-level argument but still use its slot', () => {
      expect(single('search("q", None, 4)')).toEqual({ query: 'q', limit: 4 });
      expect(single('search(query="q", limit=None)')).toEqual({ query: 'q' });
      expect(single('search({query: "q", limit: null})')).toEqual({ query: 'q' });
      expect(single('search("q", limit=undefined)')).toEqual({ query: 'q' });
    });

    it('stay null when nested', () => {
      expect(single('search("q", {"site": None})')).toEqual({ query: 'q', filters: { site: null } });
    });
  });

  describe('the single-object form', () => {
    it('unpacks when every key is a parameter', () => {
      expect(single('search({"query": "q", "ratio": 0.5})')).toEqual({ query: 'q', ratio: 0.5 });
      expect(single('search({})')).toEqual({});
    });

    it("is the lone parameter's value when the tool has exactly one", () => {
      expect(single('echo({kind: "x", n: 1})')).toEqual({ payload: { kind: 'x', n: 1 } });
      expect(single('echo({payload: 1})')).toEqual({ payload: 1 });
    });

    it('is refused otherwise', () => {
      expect(parse('search({query: "q", page: 2})')).toBeUndefined();
    });

    it('is an ordinary positional value when other arguments follow', () => {
      expect(single('search({"query": "q"}, limit=1)')).toEqual({ query: { query: 'q' }, limit: 1 });
    });
  });

  describe('refuses the whole body', () => {
    it.each([
      ['prose before a call', 'Let me search.\nsearch(query="x")'],
      ['prose after a call', 'search(query="x")\nThat should do it.'],
      ['prose on the same line', 'I will call search(query="x")'],
      ['a call embedded in prose', 'Calling search("x") now'],
      ['an unknown tool', 'lookup(id=1)'],
      ['one unknown tool among known ones', 'search("x")\nlookup(id=1)'],
      ['a bare identifier value', 'search(query)'],
      ['a variable as value', 'search(query=q)'],
      ['an expression', 'search("a" + "b")'],
      ['a nested call', 'search(str(5))'],
      ['a keyword that is not a parameter', 'search(q="x")'],
      ['positional after keyword', 'search(query="x", 5)'],
      ['a duplicate keyword', 'search(query="x", query="y")'],
      ['positional then the same keyword', 'search("x", query="y")'],
      ['a None slot then the same keyword', 'search(None, query="y")'],
      ['too many positional arguments', 'search("a", {}, 1, 0.5, "extra")'],
      ['any argument to a tool without parameters', 'clock(1)'],
      ['trailing tokens after the call', 'search("x") + 1'],
      ['a chained call', 'search("x").then()'],
      ['a second call on the same line without a separator', 'search("x") search("y")'],
      ['a missing closing parenthesis', 'search("x"'],
      ['a name without a call', 'search'],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: model text under test
      ['interpolation in a backtick string', 'search(`a ${b}`)'],
      ['an f-string', 'search(f"x")'],
      ['a bytes string', 'search(b"x")'],
      ['an unterminated string', 'search("x)'],
      ['an unterminated triple-quoted string', 'search("""x")'],
      ['a Unicode name escape', 'search("\\N{BULLET}")'],
      ['a malformed hex escape', 'search("\\xZZ")'],
      ['a hex number', 'search("q", limit=0x10)'],
      ['a BigInt', 'search("q", limit=5n)'],
      ['a number overflowing to infinity', 'search("q", ratio=1e999)'],
      ['a spread', 'search(**{"query": "x"})'],
      ['a numeric object key', 'echo({1: "a"})'],
      ['a shorthand property', 'search({query})'],
      ['a comparison', 'search(query=="x")'],
      ['a typed declaration', 'const r: string = search("x")'],
      ['a dotted assignment target', 'self.r = search("x")'],
      ['a return statement', 'return search("x")'],
      ['a JSON body', '{"name": "search", "arguments": {"query": "x"}}'],
      ['a P-Format body', 'search[0|x]'],
      ['an empty body', ''],
      ['only comments and separators', '# nothing\n;;\n'],
    ])('for %s', (_, body) => {
      expect(parse(body)).toBeUndefined();
    });
  });

  describe('language option', () => {
    it('refuses bare object keys in Python', () => {
      expect(parse('search({query: "x"})', { language: 'python' })).toBeUndefined();
      expect(parse('search({"query": "x"})', { language: 'python' })).toEqual([
        { name: 'search', arguments: { query: 'x' } },
      ]);
    });

    it('refuses keyword arguments in TypeScript', () => {
      expect(parse('search(query="x")', { language: 'typescript' })).toBeUndefined();
      expect(parse('search({query: "x"})', { language: 'typescript' })).toEqual([
        { name: 'search', arguments: { query: 'x' } },
      ]);
    });
  });
});
