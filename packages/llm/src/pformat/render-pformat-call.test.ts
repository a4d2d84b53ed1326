import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { arbitraryToolCall } from './arbitrary-tool-call.test-helper.js';
import { createPformatRegistry } from './create-pformat-registry.js';
import { parsePformatBody } from './parse-pformat-body.js';
import { renderPformatCall } from './render-pformat-call.js';

const search: ToolSchema = {
  name: 'search',
  description: '',
  parameters: {
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
      mode: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    },
    required: ['query'],
  },
};
// slots: 0 query, 1 limit, 2 mode, 3 tags
const registry = createPformatRegistry([search, { name: 'send-email', description: '', parameters: {} }]);

describe('renderPformatCall', () => {
  it('writes slots in parameter order whatever the key order', () => {
    expect(renderPformatCall('search', { limit: 5, query: 'rust agents' }, registry)).toBe('search[0|rust agents|1|5]');
  });

  it('writes `name[]` for no arguments and skips undefined values', () => {
    expect(renderPformatCall('search', {}, registry)).toBe('search[]');
    expect(renderPformatCall('search', { query: 'x', limit: undefined }, registry)).toBe('search[0|x]');
  });

  it('escapes backslash, pipe and closing bracket', () => {
    const body = renderPformatCall('search', { query: 'a|b]c\\d' }, registry);
    expect(body).toBe('search[0|a\\|b\\]c\\\\d]');
    expect(parsePformatBody(body, registry)?.arguments).toEqual({ query: 'a|b]c\\d' });
  });

  it('writes arrays as escaped JSON', () => {
    const body = renderPformatCall('search', { query: 'q', tags: ['a', 'b|c'] }, registry);
    expect(body).toBe('search[0|q|3|["a","b\\|c"\\]]');
    expect(parsePformatBody(body, registry)?.arguments).toEqual({ query: 'q', tags: ['a', 'b|c'] });
  });

  it.each([
    ['an unknown tool', 'lookup', { id: 1 }],
    ['a name P-Format cannot spell', 'send-email', {}],
    ['an undeclared key', 'search', { query: 'q', page: 2 }],
    ['an empty string, which would read as a retraction', 'search', { query: '' }],
    ['a string that would read back as a number', 'search', { query: 'q', limit: '5' }],
    ['a fraction in an integer slot', 'search', { query: 'q', limit: 2.5 }],
    ['a value of a type the slot keeps as text', 'search', { query: 'q', mode: 3 }],
  ])('falls back to a JSON call for %s', (_, name, args) => {
    const body = renderPformatCall(name, args, registry);
    expect(JSON.parse(body)).toEqual({ name, arguments: args });
  });

  it('round-trips random tools and valid arguments through parsePformatBody', () => {
    fc.assert(
      fc.property(arbitraryToolCall({ emptyStrings: false }), ({ tool, args }) => {
        const tools = createPformatRegistry([tool]);
        const body = renderPformatCall(tool.name, args, tools);
        expect(body.startsWith(`${tool.name}[`)).toBe(true);
        expect(parsePformatBody(body, tools)).toEqual({ name: tool.name, arguments: args });
      }),
      { numRuns: 500 },
    );
  });
});
