import { createValidator } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { inlineLocalRefs } from './inline-local-refs.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const entry of Object.values(value)) deepFreeze(entry);
    Object.freeze(value);
  }
  return value;
}

describe('inlineLocalRefs', () => {
  it('inlines $defs and definitions, keeping sibling keywords over the target', () => {
    const schema = deepFreeze({
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/name', description: 'first' },
        b: { $ref: '#/definitions/count' },
      },
      $defs: { name: { type: 'string', description: 'a name' } },
      definitions: { count: { type: 'integer', minimum: 0 } },
    });
    const result = inlineLocalRefs(schema);
    expect(result.properties).toEqual({
      a: { type: 'string', description: 'first' },
      b: { type: 'integer', minimum: 0 },
    });
    expect(result.$defs).toEqual(schema.$defs);
  });

  it('decodes JSON-pointer escapes and percent-encoding', () => {
    const schema = {
      properties: {
        slash: { $ref: '#/$defs/a~1b' },
        tilde: { $ref: '#/$defs/c~0d' },
        space: { $ref: '#/$defs/e%20f' },
        deep: { $ref: '#/properties/slash' },
      },
      $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, 'e f': { type: 'boolean' } },
    };
    expect(inlineLocalRefs(schema).properties).toEqual({
      slash: { type: 'string' },
      tilde: { type: 'number' },
      space: { type: 'boolean' },
      deep: { type: 'string' },
    });
  });

  it('cuts recursion to {} after one unrolling and widens refs that lead nowhere', () => {
    const schema = {
      type: 'object',
      properties: {
        tree: { $ref: '#/$defs/node' },
        missing: { $ref: '#/$defs/nothing', description: 'kept' },
        remote: { $ref: 'https://example.com/schema.json' },
        self: { $ref: '#' },
      },
      $defs: {
        node: {
          type: 'object',
          properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
    };
    const result = inlineLocalRefs(schema);
    expect((result.properties as Record<string, unknown>).tree).toEqual({
      type: 'object',
      properties: { value: { type: 'string' }, children: { type: 'array', items: {} } },
    });
    expect((result.properties as Record<string, unknown>).missing).toEqual({ description: 'kept' });
    expect((result.properties as Record<string, unknown>).remote).toEqual({ $ref: 'https://example.com/schema.json' });
    expect(((result.properties as Record<string, unknown>).self as Record<string, unknown>).properties).toBeDefined();
  });

  it('handles mutual recursion and a reference at the root', () => {
    const schema = {
      $ref: '#/$defs/a',
      $defs: {
        a: { type: 'object', properties: { b: { $ref: '#/$defs/b' } } },
        b: { type: 'object', properties: { a: { $ref: '#/$defs/a' } } },
      },
    };
    const { $defs: _defs, ...result } = inlineLocalRefs(schema);
    expect(JSON.stringify(result)).not.toContain('$ref');
    expect(result.type).toBe('object');
    // Widened, never narrowed: arbitrarily deep values still pass.
    const deep = { b: { a: { b: { a: { b: { a: { b: {} } } } } } } };
    expect(createValidator(result).validate(deep).ok).toBe(true);
    expect(createValidator(result).validate({ b: 1 }).ok).toBe(false);
  });

  it('stays fast when definitions fan out', () => {
    const $defs: Record<string, unknown> = { d0: { type: 'string' } };
    for (let level = 1; level <= 40; level++) {
      $defs[`d${level}`] = {
        type: 'object',
        properties: { x: { $ref: `#/$defs/d${level - 1}` }, y: { $ref: `#/$defs/d${level - 1}` } },
      };
    }
    const result = inlineLocalRefs({ $ref: '#/$defs/d40', $defs });
    expect(result.type).toBe('object');
  });
});
