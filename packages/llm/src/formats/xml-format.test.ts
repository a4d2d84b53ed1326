import { createValidator } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatParseError } from '../errors/format-parse-error.js';
import { FormatRenderError } from '../errors/format-render-error.js';
import { identifier, schemaAndValue } from '../schema/schema-arbitrary.test-support.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import type { FormatParseResult } from './format-parse-result.js';
import { parseXmlCall, renderXmlCall, renderXmlDeclaration } from './xml-format.js';

const weather: ToolSchema = {
  name: 'weather',
  description: 'Look up weather for a city.',
  format: { type: 'xml' },
  parameters: {
    type: 'object',
    required: ['city'],
    properties: {
      city: { type: 'string', description: 'City name' },
      days: { type: 'integer' },
      metric: { type: 'boolean' },
      ratio: { type: ['number', 'null'] },
      note: { type: ['string', 'null'] },
      unit: { enum: ['c', 'f', 1] },
      tags: { type: 'array', items: { type: 'string' } },
      place: {
        type: 'object',
        properties: { lat: { type: 'number' }, lon: { type: 'number' } },
        additionalProperties: false,
      },
      extra: {},
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
  expect(result.error.format).toBe('xml');
  return result.error;
}

describe('renderXmlCall', () => {
  it('writes one element per argument under the tool element', () => {
    expect(renderXmlCall({ name: 'weather', arguments: { city: 'Oslo' } }, weather)).toBe(
      '<weather><city>Oslo</city></weather>',
    );
  });

  it('escapes & < > in text and writes null as a self-closing element', () => {
    const text = renderXmlCall({ name: 'weather', arguments: { city: 'a<b>&c]]>', note: null } }, weather);
    expect(text).toBe('<weather><city>a&lt;b&gt;&amp;c]]&gt;</city><note/></weather>');
  });

  it('nests objects and repeats <item> for arrays; untyped fields hold JSON text', () => {
    const text = renderXmlCall(
      { name: 'weather', arguments: { city: 'x', tags: ['a', ''], place: { lat: 1.5 }, extra: { k: [1] } } },
      weather,
    );
    expect(text).toBe(
      '<weather><city>x</city><tags><item>a</item><item></item></tags><place><lat>1.5</lat></place><extra>{"k":[1]}</extra></weather>',
    );
  });

  it('refuses names that are not element names', () => {
    expect(() => renderXmlCall({ name: 'weather', arguments: { 'bad name': 1 } }, weather)).toThrow(FormatRenderError);
    expect(() => renderXmlCall({ name: '1tool', arguments: {} }, weather)).toThrow(FormatRenderError);
  });
});

describe('parseXmlCall', () => {
  it('types values through the schema; strings stay strings even when they look numeric', () => {
    const text = `
      <weather>
        <city>5</city>
        <days> 3 </days>
        <metric>true</metric>
        <ratio>-1.5e2</ratio>
        <unit>1</unit>
      </weather>`;
    expect(ok(parseXmlCall(text, weather))).toEqual({ city: '5', days: 3, metric: true, ratio: -150, unit: 1 });
  });

  it('keeps string text verbatim, including surrounding whitespace', () => {
    expect(ok(parseXmlCall('<weather><city>  New York \n</city></weather>', weather))).toEqual({
      city: '  New York \n',
    });
  });

  it('decodes CDATA, named entities and numeric references', () => {
    const text = '<weather><city><![CDATA[a < b && <c>]]>&lt;&gt;&amp;&quot;&apos;&#65;&#x1F600;</city></weather>';
    expect(ok(parseXmlCall(text, weather))).toEqual({ city: 'a < b && <c><>&"\'A😀' });
  });

  it('keeps a bare & or a < that cannot start a tag as text', () => {
    expect(ok(parseXmlCall('<weather><city>rock & roll < 3 &unknown;</city></weather>', weather))).toEqual({
      city: 'rock & roll < 3 &unknown;',
    });
  });

  it('reads null, empty strings, arrays, nested objects; skips comments', () => {
    const text =
      '<?xml version="1.0"?><!-- call --><weather><city></city><note/><ratio>null</ratio><tags><item>a</item><item/></tags><place><lat>1</lat></place></weather>';
    expect(ok(parseXmlCall(text, weather))).toEqual({
      city: '',
      note: null,
      ratio: null,
      tags: ['a', ''],
      place: { lat: 1 },
    });
  });

  it('accepts JSON text in an array or object field', () => {
    expect(ok(parseXmlCall('<weather><city>x</city><tags>["a", "b"]</tags></weather>', weather))).toEqual({
      city: 'x',
      tags: ['a', 'b'],
    });
  });

  it('reads an empty call as no arguments', () => {
    expect(ok(parseXmlCall('<weather/>', weather))).toEqual({});
    expect(ok(parseXmlCall('<weather>\n</weather>', weather))).toEqual({});
  });

  it.each([
    ['<forecast><city>x</city></forecast>', 'unknown_tool'],
    ['<weather><town>x</town></weather>', 'unknown_field'],
    ['<weather><place><alt>1</alt></place></weather>', 'unknown_field'],
    ['<weather><tags><tag>a</tag></tags></weather>', 'unknown_field'],
    ['<weather><city>a</city><city>b</city></weather>', 'duplicate_field'],
    ['<weather><city>x</city>', 'unterminated'],
    ['<weather><city>x</weather>', 'mismatched_tag'],
    ['<weather><city>x</city></weather></weather>', 'mismatched_tag'],
    ['<weather><days>three</days></weather>', 'type_mismatch'],
    ['<weather><days>1.5.2</days></weather>', 'type_mismatch'],
    ['<weather><metric>yes</metric></weather>', 'type_mismatch'],
    ['<weather><days></days></weather>', 'type_mismatch'],
    ['<weather><city>x<b>y</b></city></weather>', 'type_mismatch'],
    ['<weather><place>text<lat>1</lat></place></weather>', 'type_mismatch'],
    ['<weather><city unit="c">x</city></weather>', 'syntax'],
    ['<weather><city><![CDATA[x</city></weather>', 'unterminated'],
    ['<weather><!-- x</weather>', 'unterminated'],
    ['<weather><city>x</city></weather> thanks', 'trailing_text'],
    ['<weather></weather><weather></weather>', 'trailing_text'],
    ['call: <weather></weather>', 'syntax'],
    ['<!DOCTYPE x><weather></weather>', 'syntax'],
    ['just text', 'syntax'],
    ['', 'syntax'],
    ['<weather', 'unterminated'],
  ])('reports %j as %s', (text, kind) => {
    expect(failure(parseXmlCall(text, weather)).kind).toBe(kind);
  });

  it('follows $ref in the schema, including at the root', () => {
    const tool: ToolSchema = {
      name: 'order',
      description: '',
      format: { type: 'xml' },
      parameters: {
        $ref: '#/definitions/order',
        definitions: {
          order: { type: 'object', properties: { qty: { type: 'integer' }, item: { $ref: '#/definitions/item' } } },
          item: { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' } } },
        },
      },
    };
    const text = '<order><qty>2</qty><item><sku>007</sku><price>9.5</price></item></order>';
    expect(ok(parseXmlCall(text, tool))).toEqual({ qty: 2, item: { sku: '007', price: 9.5 } });
    expect(renderXmlCall({ name: 'order', arguments: { qty: 2, item: { sku: '007', price: 9.5 } } }, tool)).toBe(text);
    expect(failure(parseXmlCall('<order><item><size>1</size></item></order>', tool)).kind).toBe('unknown_field');
  });

  it('reports the offset of the problem', () => {
    const error = failure(parseXmlCall('<weather><city>x</weather>', weather));
    expect(error.offset).toBe(16);
    expect(error.message).toContain('</weather>');
  });

  it('stops at a nesting limit and stays linear on hostile input', () => {
    const deep = `<weather>${'<a>'.repeat(100_000)}`;
    expect(failure(parseXmlCall(deep, weather)).kind).toBe('too_deep');
    failure(parseXmlCall(`<weather><city>${'&'.repeat(200_000)}${'<!'.repeat(1)}`, weather));
    ok(parseXmlCall(`<weather><city>${'&#'.repeat(100_000)}${'< '.repeat(100_000)}</city></weather>`, weather));
  });

  it('round-trips random valid arguments for random schemas', () => {
    fc.assert(
      fc.property(schemaAndValue, identifier, ({ schema, value }, name) => {
        expect(createValidator(schema).validate(value).ok).toBe(true);
        const tool: ToolSchema = { name, description: '', parameters: schema, format: { type: 'xml' } };
        const result = parseXmlCall(renderXmlCall({ name, arguments: value }, tool), tool);
        expect(result).toEqual({ ok: true, call: { name, arguments: value } });
      }),
      // Sized for a loaded 2-core machine: 400 runs took 61 s at load 25.
      { numRuns: 200 },
    );
  });
});

describe('renderXmlDeclaration', () => {
  it('shows the element skeleton with types, required marks and descriptions', () => {
    const text = renderXmlDeclaration(weather);
    expect(text.split('\n')[0]).toBe('weather: Look up weather for a city.');
    expect(text).toContain('  <city>string</city> <!-- required; City name -->');
    expect(text).toContain('  <days>integer</days> <!-- optional -->');
    expect(text).toContain('  <note>string | null</note> <!-- optional; <note/> for null -->');
    expect(text).toContain('  <unit>c | f | 1</unit>');
    expect(text).toContain('  <tags> <!-- optional; one <item> per entry -->\n    <item>string</item>');
    expect(text).toContain('  <place> <!-- optional -->\n    <lat>number</lat> <!-- optional -->');
    expect(text.endsWith('</weather>')).toBe(true);
  });

  it('ends recursive schemas', () => {
    const tree: ToolSchema = {
      name: 'tree',
      description: '',
      parameters: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      },
    };
    const text = renderXmlDeclaration(tree);
    expect(text).toContain('<child>JSON value</child>');
  });
});
