import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { parseToolCall, renderToolCall, renderToolDeclaration } from './tool-format-dispatch.js';

const parameters = {
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'string' }, limit: { type: 'integer' } },
};
const call = { name: 'search', arguments: { query: 'rust agents', limit: 5 } };

describe('tool format dispatch', () => {
  it.each([
    [undefined, '{"name":"search","arguments":{"query":"rust agents","limit":5}}', 'Parameters (JSON Schema)'],
    [
      { type: 'json' } as const,
      '{"name":"search","arguments":{"query":"rust agents","limit":5}}',
      'Parameters (JSON Schema)',
    ],
    [{ type: 'xml' } as const, '<search><query>rust agents</query><limit>5</limit></search>', '<search>'],
    [
      { type: 'ptype', parameters: ['query', 'limit'] } as const,
      'search("rust agents", 5)',
      'search(query: string, limit?: integer)',
    ],
  ])('uses the tool format %j', (format, rendered, declared) => {
    const tool: ToolSchema = { name: 'search', description: 'Search.', parameters, format };
    expect(renderToolCall(call, tool)).toBe(rendered);
    expect(parseToolCall(rendered, tool)).toEqual({ ok: true, call });
    expect(renderToolDeclaration(tool)).toContain(declared);
  });

  it('does not read one format as another', () => {
    const tool: ToolSchema = { name: 'search', description: '', parameters, format: { type: 'xml' } };
    const result = parseToolCall('search("rust agents", 5)', tool);
    expect(result.ok).toBe(false);
  });
});
