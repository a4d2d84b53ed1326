import { describe, expect, it } from 'vitest';
import { createPformatRegistry } from './create-pformat-registry.js';

const search = {
  name: 'search',
  description: 'Search the web.',
  parameters: {
    type: 'object',
    properties: { limit: { type: 'integer' }, query: { type: 'string' }, safe: { type: 'boolean' } },
    required: ['query'],
  },
};

describe('createPformatRegistry', () => {
  it('maps each tool to its ordered names and types', () => {
    const registry = createPformatRegistry([search]);
    expect(registry.get('search')).toEqual({
      names: ['query', 'limit', 'safe'],
      types: ['string', 'integer', 'boolean'],
    });
  });

  it('looks names up exactly', () => {
    const registry = createPformatRegistry([search]);
    expect(registry.has('search')).toBe(true);
    expect(registry.has('Search')).toBe(false);
    expect(registry.get('functions.search')).toBeUndefined();
  });

  it('keeps the first of two tools with the same name, and lists names in order', () => {
    const other = { name: 'search', description: '', parameters: {} };
    const clock = { name: 'clock', description: '', parameters: {} };
    const registry = createPformatRegistry([search, clock, other]);
    expect(registry.names()).toEqual(['search', 'clock']);
    expect(registry.get('search')?.names).toEqual(['query', 'limit', 'safe']);
    expect(registry.get('clock')).toEqual({ names: [], types: [] });
  });

  it('types a required name without a property as any', () => {
    const registry = createPformatRegistry([{ name: 'x', description: '', parameters: { required: ['ghost'] } }]);
    expect(registry.get('x')).toEqual({ names: ['ghost'], types: ['any'] });
  });
});
