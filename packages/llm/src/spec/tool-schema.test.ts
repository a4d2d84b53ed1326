import { describe, expect, it } from 'vitest';
import { createInvalidToolCall, isInvalidToolCall } from './tool-call.js';
import { serializeToolSchema, type ToolSchema, toolFormatOf } from './tool-schema.js';

const weather: ToolSchema = {
  name: 'weather',
  description: 'Look up weather for a city.',
  parameters: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
};

describe('ToolSchema', () => {
  it('defaults to the json format and omits it when serialised', () => {
    expect(toolFormatOf(weather)).toEqual({ type: 'json' });
    expect(serializeToolSchema({ ...weather, format: { type: 'json' } })).toEqual(weather);
    expect('format' in serializeToolSchema({ ...weather, format: { type: 'json' } })).toBe(false);
  });

  it('keeps non-default formats', () => {
    const ptype = { ...weather, format: { type: 'ptype' as const, parameters: ['city'] } };
    expect(JSON.parse(JSON.stringify(serializeToolSchema(ptype))).format).toEqual({
      type: 'ptype',
      parameters: ['city'],
    });
    expect(serializeToolSchema({ ...weather, format: { type: 'xml' } }).format).toEqual({ type: 'xml' });
  });
});

describe('ToolCall', () => {
  it('keeps the raw argument string and the reason of an invalid call', () => {
    const call = createInvalidToolCall('c1', 'weather', '{"city": Oslo', 'unexpected token O');
    expect(isInvalidToolCall(call)).toBe(true);
    expect(call.arguments).toBe('{"city": Oslo');
    expect(isInvalidToolCall({ id: 'c2', name: 'weather', arguments: {} })).toBe(false);
  });
});
