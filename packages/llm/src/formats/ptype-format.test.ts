import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatParseError } from '../errors/format-parse-error.js';
import { FormatRenderError } from '../errors/format-render-error.js';
import { identifier, schemaAndValue } from '../schema/schema-arbitrary.test-support.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import type { FormatParseResult } from './format-parse-result.js';
import { parsePtypeCall, renderPtypeCall, renderPtypeDeclaration } from './ptype-format.js';

const search: ToolSchema = {
  name: 'search',
  description: 'Search documents.',
  format: { type: 'ptype', parameters: ['query', 'limit', 'lang', 'filters'] },
  parameters: {
    type: 'object',
    required: ['query'],
    properties: {
      query: { type: 'string', description: 'What to look for' },
      limit: { type: 'integer' },
      lang: { type: ['string', 'null'] },
      filters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
    },
  },
};

function ok(result: FormatParseResult): Record<string, unknown> {
  if (!result.ok) throw result.error;
  return result.call.arguments;
}

function failure(result: FormatParseResult): FormatParseError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.call)}`);
  expect(FormatParseError.isInstance(result.error)).toBe(true);
  expect(result.error.format).toBe('ptype');
  return result.error;
}

describe('renderPtypeCall', () => {
  it('writes positional JSON literals in parameter order', () => {
    expect(renderPtypeCall({ name: 'search', arguments: { limit: 5, query: 'rust agents' } }, search)).toBe(
      'search("rust agents", 5)',
    );
    expect(renderPtypeCall({ name: 'search', arguments: {} }, search)).toBe('search()');
  });

  it('writes a gap as null when the parameter does not admit null, else as an empty slot', () => {
    expect(renderPtypeCall({ name: 'search', arguments: { query: 'q', lang: 'en' } }, search)).toBe(
      'search("q", null, "en")',
    );
    expect(renderPtypeCall({ name: 'search', arguments: { query: 'q', filters: {} } }, search)).toBe(
      'search("q", null, , {})',
    );
  });

  it('refuses arguments without a position and names that cannot be written', () => {
    expect(() => renderPtypeCall({ name: 'search', arguments: { page: 2 } }, search)).toThrow(FormatRenderError);
    expect(() => renderPtypeCall({ name: 'bad name', arguments: {} }, search)).toThrow(FormatRenderError);
  });
});

describe('parsePtypeCall', () => {
  it('maps positional values back to parameter names', () => {
    expect(ok(parsePtypeCall('search("rust agents", 5)', search))).toEqual({ query: 'rust agents', limit: 5 });
  });

  it('decodes string escapes and accepts single quotes and whitespace', () => {
    const text = String.raw` search ( "a\"b\\c\nd\te\u00e9\/" , 7 , 'it\'s' ) `;
    expect(ok(parsePtypeCall(text, search))).toEqual({ query: 'a"b\\c\nd\teé/', limit: 7, lang: "it's" });
  });

  it('reads arrays and objects as JSON literals', () => {
    expect(ok(parsePtypeCall('search("q", 1, null, {"tags": ["a", "b"], "n": -1.5e3, "ok": true})', search))).toEqual({
      query: 'q',
      limit: 1,
      lang: null,
      filters: { tags: ['a', 'b'], n: -1500, ok: true },
    });
  });

  it('omits trailing parameters, empty slots and nulls for parameters that do not admit null', () => {
    expect(ok(parsePtypeCall('search("q")', search))).toEqual({ query: 'q' });
    expect(ok(parsePtypeCall('search("q", null, "en")', search))).toEqual({ query: 'q', lang: 'en' });
    expect(ok(parsePtypeCall('search("q", , , {})', search))).toEqual({ query: 'q', filters: {} });
    expect(ok(parsePtypeCall('search()', search))).toEqual({});
    expect(ok(parsePtypeCall('search("q", 1, null)', search))).toEqual({ query: 'q', limit: 1, lang: null });
  });

  it.each([
    ['search("a", 1, "en", {}, 9)', 'too_many_values'],
    ['search("a", 1, "en", {},)', 'too_many_values'],
    ['find("a")', 'unknown_tool'],
    ['search("rust agents, 5)', 'unterminated'],
    ['search("a", 5', 'unterminated'],
    ['search("a",', 'unterminated'],
    ['search', 'unterminated'],
    ['search("a") and more', 'trailing_text'],
    ['search("a"))', 'trailing_text'],
    ['search "a"', 'syntax'],
    ['search(rust)', 'syntax'],
    ['search("a" 5)', 'syntax'],
    ['search("\\q")', 'syntax'],
    ['search("\\u12")', 'syntax'],
    ['search(01)', 'syntax'],
    ['search(-)', 'syntax'],
    ['search([1, 2,])', 'syntax'],
    ['search({a: 1})', 'syntax'],
    ['search([1, 2)', 'syntax'],
    ['search({"a": 1)', 'syntax'],
    ['search(1e999)', 'syntax'],
    ['', 'syntax'],
    [`search(${'['.repeat(10_000)})`, 'too_deep'],
  ])('reports %j as %s', (text, kind) => {
    expect(failure(parsePtypeCall(text, search)).kind).toBe(kind);
  });

  it('points at the extra value', () => {
    expect(failure(parsePtypeCall('search("a", 1, "en", {}, 9)', search)).offset).toBe(25);
  });

  it('stays linear on long unterminated input', () => {
    failure(parsePtypeCall(`search("${'\\n'.repeat(200_000)}`, search));
    failure(parsePtypeCall(`search(${'"a", '.repeat(100_000)}`, search));
  });

  it('round-trips random valid arguments for random schemas and parameter orders', () => {
    const cases = schemaAndValue.chain(({ schema, value }) => {
      const names = Object.keys(schema.properties as object);
      return fc.shuffledSubarray(names, { minLength: names.length }).map((order) => ({ schema, value, order }));
    });
    fc.assert(
      fc.property(cases, identifier, ({ schema, value, order }, name) => {
        const tool: ToolSchema = {
          name,
          description: '',
          parameters: schema,
          format: { type: 'ptype', parameters: order },
        };
        const result = parsePtypeCall(renderPtypeCall({ name, arguments: value }, tool), tool);
        expect(result).toEqual({ ok: true, call: { name, arguments: value } });
      }),
      { numRuns: 400 },
    );
  });
});

describe('renderPtypeDeclaration', () => {
  it('shows the typed signature in positional order, then descriptions', () => {
    expect(renderPtypeDeclaration(search)).toBe(
      [
        'search(query: string, limit?: integer, lang?: string | null, filters?: {tags?: string[]})',
        '  Search documents.',
        '  query: What to look for',
      ].join('\n'),
    );
  });
});
