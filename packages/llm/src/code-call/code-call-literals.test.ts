import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../parse/parse-tool-calls.js';
import { createPformatRegistry } from '../pformat/create-pformat-registry.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { parseCodeCallBody } from './parse-code-call-body.js';

// PARSE-3 code-call literals. Escapes follow each language's own definition: Python's lexical
// analysis reference (string and bytes literals: an unrecognised escape keeps its backslash, `\a`
// is BEL, `\N{…}` names a character) and ECMAScript's string literal grammar (a non-escape
// character stands for itself; legacy octal is a strict-mode error; `\u{…}` code points).
const tools: ToolSchema[] = [
  {
    name: 'note',
    description: '',
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        exact: { type: 'boolean' },
        either: { type: ['string', 'integer'] },
      },
    },
  },
];
const registry = createPformatRegistry(tools);
const python = (body: string) => parseCodeCallBody(body, registry, { language: 'python' })?.[0]?.arguments;
const typescript = (body: string) => parseCodeCallBody(body, registry, { language: 'typescript' })?.[0]?.arguments;

describe('code-call string escapes, exactly per language', () => {
  it('Python keeps the backslash of an unknown escape; TypeScript drops it', () => {
    expect(python('note(text="a\\qb")')).toEqual({ text: 'a\\qb' });
    expect(typescript('note({text: "a\\qb"})')).toEqual({ text: 'aqb' });
  });

  it('reads the escapes only one language defines as that language does', () => {
    expect(python('note(text="\\a")')).toEqual({ text: '\u0007' });
    expect(typescript('note({text: "\\a"})')).toEqual({ text: 'a' });
    expect(python('note(text="\\U0001F600")')).toEqual({ text: '😀' });
    expect(typescript('note({text: "\\U0001F600"})')).toEqual({ text: 'U0001F600' });
    expect(typescript('note({text: "\\u{1F600}"})')).toEqual({ text: '😀' });
    expect(python('note(text="\\u{1F600}")')).toBeUndefined();
    expect(python('note(text="\\101")')).toEqual({ text: 'A' });
  });

  it('refuses what a language refuses: legacy octal in TypeScript, \\N{} and backtick strings in Python', () => {
    expect(typescript('note({text: "\\101"})')).toBeUndefined();
    expect(typescript('note({text: "a\\0b"})')).toEqual({ text: 'a\0b' });
    expect(python('note(text="\\N{BULLET}")')).toBeUndefined();
    expect(python('note(text=`x`)')).toBeUndefined();
    expect(typescript('note({text: r"x"})')).toBeUndefined();
  });

  it('in a pythonic list (Llama 4 format) strings are Python strings', () => {
    const result = parseToolCalls('<|python_start|>[note(text="tab\\there \\d")]<|python_end|>', { tools });
    expect(result.calls).toEqual([{ name: 'note', arguments: { text: 'tab\there \\d' }, source: 'pythonic' }]);
  });
});

describe('schema-directed coercion of quoted scalars', () => {
  it('turns canonical text into the one scalar type the schema admits', () => {
    expect(python('note(count="5", ratio="2.5", exact="true")')).toEqual({ count: 5, ratio: 2.5, exact: true });
  });

  it('keeps text that is not canonical, and every value of a string or union parameter', () => {
    expect(python('note(count="05", ratio="1e999", exact="yes")')).toEqual({
      count: '05',
      ratio: '1e999',
      exact: 'yes',
    });
    expect(python('note(count="9007199254740993")')).toEqual({ count: '9007199254740993' });
    expect(python('note(text="5", either="5")')).toEqual({ text: '5', either: '5' });
  });
});

describe('the nesting cap', () => {
  it('refuses arguments nested past the cap as an invalid call that says so', () => {
    const deep = `${'['.repeat(200)}1${']'.repeat(200)}`;
    const result = parseToolCalls(`<tool_call>note(text=${deep})</tool_call>`, { tools });
    expect(result.calls).toHaveLength(1);
    const [call] = result.calls;
    expect(call?.invalid).toMatch(/nest deeper than 128 levels/);
  });
});
