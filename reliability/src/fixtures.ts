import type { ToolSchema } from '@tiny/llm';

/** Tool schemas used by the fuzzers: flat, nested, enum, array; one per seed format. */
export const weatherTool: ToolSchema = {
  name: 'weather',
  description: 'Weather for a city.',
  parameters: {
    type: 'object',
    required: ['city'],
    additionalProperties: false,
    properties: {
      city: { type: 'string' },
      days: { type: 'integer' },
      unit: { enum: ['c', 'f'] },
      tags: { type: 'array', items: { type: 'string' } },
      where: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } } },
    },
  },
};

export const searchTool: ToolSchema = {
  name: 'search',
  description: 'Search.',
  parameters: {
    type: 'object',
    required: ['query'],
    properties: { query: { type: 'string' }, limit: { type: 'integer' } },
  },
};

export const fuzzTools: readonly ToolSchema[] = [
  weatherTool,
  searchTool,
  { ...weatherTool, name: 'xml_weather', format: { type: 'xml' } },
  { ...searchTool, name: 'ptype_search', format: { type: 'ptype', parameters: ['query', 'limit'] } },
];
