import type { ToolSchema } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { canonicalSchema, canonicalTool, wireToolJson } from './canonical-tool.js';

// The same tool as two sources write it: a TypeBox-style declaration, and an MCP server's
// `tools/list` entry (inputSchema) whose keys come in another order (shape from the MCP spec's
// tools/list example, https://modelcontextprotocol.io/specification/2025-06-18/server/tools).
const declared = {
  type: 'object',
  properties: {
    q: { type: 'string', minLength: 1, description: 'the query' },
    filter: {
      type: 'object',
      properties: { lang: { enum: ['en', 'de'], type: 'string' } },
      additionalProperties: false,
    },
    tags: { type: 'array', items: { type: 'string', maxLength: 8 } },
  },
  required: ['q'],
  additionalProperties: false,
};
const listing = JSON.parse(
  '{"additionalProperties":false,"required":["q"],"properties":{"q":{"description":"the query","minLength":1,"type":"string"},' +
    '"filter":{"additionalProperties":false,"properties":{"lang":{"type":"string","enum":["en","de"]}},"type":"object"},' +
    '"tags":{"items":{"maxLength":8,"type":"string"},"type":"array"}},"type":"object"}',
);

describe('canonicalSchema', () => {
  it('writes one byte sequence for one schema, whatever the key order it was written in', () => {
    expect(JSON.stringify(canonicalSchema(listing))).toBe(JSON.stringify(canonicalSchema(declared)));
    // Keyword keys sorted at every level...
    const text = JSON.stringify(canonicalSchema(declared));
    expect(text.startsWith('{"additionalProperties":false,"properties":{"q":{"description"')).toBe(true);
    expect(text).toContain('"lang":{"enum":["en","de"],"type":"string"}');
    expect(text).toContain('"items":{"maxLength":8,"type":"string"}');
    // ...and canonicalising twice changes nothing.
    expect(JSON.stringify(canonicalSchema(canonicalSchema(listing)))).toBe(text);
  });

  it('keeps the declared member order of properties and other name-to-schema maps, and data values as written', () => {
    const schema = {
      type: 'object',
      properties: { zeta: { type: 'string' }, alpha: { type: 'number' } },
      $defs: { Z: { type: 'string' }, A: { type: 'number' } },
      required: ['zeta', 'alpha'],
      default: { zeta: 'z', alpha: 1 },
      anyOf: [
        { type: 'object', required: ['zeta'] },
        { required: ['alpha'], type: 'object' },
      ],
    };
    const out = canonicalSchema(schema) as Record<string, Record<string, unknown>>;
    expect(Object.keys(out)).toEqual(['$defs', 'anyOf', 'default', 'properties', 'required', 'type']);
    expect(Object.keys(out.properties ?? {})).toEqual(['zeta', 'alpha']);
    expect(Object.keys(out.$defs ?? {})).toEqual(['A', 'Z']);
    expect(out.required).toEqual(['zeta', 'alpha']);
    expect(Object.keys(out.default ?? {})).toEqual(['zeta', 'alpha']);
    expect(JSON.stringify(out.anyOf)).toBe(
      '[{"required":["zeta"],"type":"object"},{"required":["alpha"],"type":"object"}]',
    );
    // A property named like a keyword is a member, not a keyword: its place is kept.
    const named = canonicalSchema({ properties: { type: { type: 'string' }, items: { type: 'number' } } });
    expect(Object.keys((named as { properties: object }).properties)).toEqual(['type', 'items']);
  });

  it('canonicalises contentSchema, sorts discriminator keys and $defs/definitions members, keeps data values', () => {
    const a = canonicalSchema({
      type: 'string',
      contentSchema: { type: 'object', required: ['b', 'a'], properties: { z: {}, a: {} } },
      discriminator: { mapping: { z: '#/$defs/Z', a: '#/$defs/A' }, propertyName: 'kind' },
      $defs: { Z: { type: 'string', enum: ['z', 'a'] }, A: { default: { y: 1, x: 2 }, type: 'number' } },
      definitions: { b: { type: 'null' }, a: { const: 1 } },
    });
    const b = canonicalSchema({
      definitions: { a: { const: 1 }, b: { type: 'null' } },
      $defs: { A: { type: 'number', default: { y: 1, x: 2 } }, Z: { enum: ['z', 'a'], type: 'string' } },
      discriminator: { propertyName: 'kind', mapping: { a: '#/$defs/A', z: '#/$defs/Z' } },
      contentSchema: { properties: { z: {}, a: {} }, type: 'object', required: ['b', 'a'] },
      type: 'string',
    });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const content = (a as { contentSchema: { properties: object; required: string[] } }).contentSchema;
    expect(Object.keys(content)).toEqual(['properties', 'required', 'type']);
    expect(Object.keys(content.properties)).toEqual(['z', 'a']);
    expect(content.required).toEqual(['b', 'a']);
    const defs = (a as { $defs: Record<string, { enum?: string[]; default?: object }> }).$defs;
    expect(Object.keys(defs)).toEqual(['A', 'Z']);
    expect(defs.Z?.enum).toEqual(['z', 'a']);
    expect(Object.keys(defs.A?.default ?? {})).toEqual(['y', 'x']);
  });

  it('leaves its argument unchanged', () => {
    const before = JSON.stringify(listing);
    canonicalSchema(listing);
    expect(JSON.stringify(listing)).toBe(before);
  });
});

describe('canonicalTool', () => {
  it('keeps what the model is shown, in one key order, and nothing else', () => {
    const raw = {
      parameters: listing,
      annotations: { readOnlyHint: true },
      description: 'Search.',
      name: 'search',
    } as ToolSchema;
    const tool = canonicalTool(raw);
    expect(Object.keys(tool)).toEqual(['name', 'description', 'parameters']);
    expect(canonicalTool(raw)).toBe(tool);
    expect(canonicalTool(tool)).toBe(tool);
    expect(wireToolJson(raw)).toBe(wireToolJson({ name: 'search', description: 'Search.', parameters: declared }));
    // outputSchema is kept for the code dialects but is not part of what is sent natively.
    const withOutput = { ...raw, outputSchema: { type: 'string' } } as ToolSchema;
    expect(canonicalTool(withOutput).outputSchema).toEqual({ type: 'string' });
    expect(wireToolJson(withOutput)).toBe(wireToolJson(raw));
  });
});
