import { createValidator, type JsonSchema } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clipDescription,
  compactParameters,
  compactToolSchema,
  jsonBytes,
  OPEN_OBJECT_SCHEMA,
  THIRD_PARTY_SCHEMA_COMPACTION,
} from './compact-schema.js';

const accepts = (schema: JsonSchema, value: unknown) => createValidator(schema).validate(value).ok;

describe('clipDescription', () => {
  it('keeps text that fits and counts the ellipsis in the budget', () => {
    expect(clipDescription('short', 5)).toBe('short');
    expect(clipDescription('abcdefgh', 7)).toBe('abcd…');
    expect(new TextEncoder().encode(clipDescription('abcdefgh', 7)).length).toBe(7);
  });

  it('cuts at a code-point boundary and returns empty under 3 bytes', () => {
    expect(clipDescription('ééééé', 8)).toBe('éé…');
    expect(clipDescription('😀😀😀', 9)).toBe('😀…');
    expect(clipDescription('abcdef', 2)).toBe('');
    expect(clipDescription('abcdef', 3)).toBe('…');
  });
});

describe('compactParameters ladder', () => {
  const withDefs: JsonSchema = {
    type: 'object',
    description: 'Root.',
    properties: {
      item: { $ref: '#/$defs/Item', description: 'The item.' },
      tags: { type: 'array', items: { type: 'string', description: 'A tag of some length.' } },
    },
    required: ['item'],
    $defs: {
      Item: { type: 'object', properties: { id: { type: 'integer', description: 'Identifier.' } } },
      'Un~1used': { type: 'object', description: 'x'.repeat(400) },
    },
  };

  it('returns the schema itself when it fits', () => {
    const result = compactParameters(withDefs, 100_000);
    expect(result.parameters).toBe(withDefs);
    expect(result.steps).toEqual([]);
  });

  it('prunes unreachable definitions first', () => {
    const result = compactParameters(withDefs, jsonBytes(withDefs) - 100);
    expect(result.steps).toEqual(['prune_definitions']);
    expect(Object.keys((result.parameters as { $defs: object }).$defs)).toEqual(['Item']);
  });

  it('follows references transitively and decodes JSON-pointer escapes', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/a~1b' } },
      $defs: {
        'a/b': { $ref: '#/definitions/C' },
        unused: { type: 'string', description: 'y'.repeat(200) },
      },
      definitions: { C: { type: 'string' }, D: { type: 'number', description: 'z'.repeat(200) } },
    };
    const result = compactParameters(schema, jsonBytes(schema) - 50);
    expect(result.parameters).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/a~1b' } },
      $defs: { 'a/b': { $ref: '#/definitions/C' } },
      definitions: { C: { type: 'string' } },
    });
  });

  it('does not prune when a reference is not a plain definition pointer', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { $ref: '#anchor' } },
      $defs: { x: { $anchor: 'anchor', type: 'string', description: 'q'.repeat(300) } },
    };
    const result = compactParameters(schema, jsonBytes(schema) - 10);
    expect(result.steps[0]).not.toBe('prune_definitions');
  });

  it('strips nested descriptions, then property descriptions, keeping top-level names and required', () => {
    const schema: JsonSchema = {
      type: 'object',
      description: 'Root stays.',
      properties: {
        a: { type: 'object', description: 'top', properties: { b: { type: 'string', description: 'n'.repeat(50) } } },
      },
      required: ['a'],
    };
    const nested = compactParameters(schema, jsonBytes(schema) - 40);
    expect(nested.steps).toEqual(['strip_nested_descriptions']);
    expect(nested.parameters).toEqual({
      type: 'object',
      description: 'Root stays.',
      properties: { a: { type: 'object', description: 'top', properties: { b: { type: 'string' } } } },
      required: ['a'],
    });
    const all = compactParameters(schema, jsonBytes(nested.parameters) - 5);
    expect(all.steps).toEqual(['strip_nested_descriptions', 'strip_property_descriptions']);
    expect(all.parameters).toEqual({
      type: 'object',
      description: 'Root stays.',
      properties: { a: { type: 'object', properties: { b: { type: 'string' } } } },
      required: ['a'],
    });
  });

  it('drops definition tables and widens surviving references to {} (never to type: object)', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/A' } },
      $defs: { A: { type: 'string', enum: ['x'.repeat(100), 'y'.repeat(100)] } },
    };
    const result = compactParameters(schema, 80);
    expect(result.steps).toContain('drop_definitions');
    expect(result.parameters).toEqual({ type: 'object', properties: { a: {}, b: {} } });
  });

  it('collapses objects deeper than 3 keeping their type and description', () => {
    const deep = (depth: number): JsonSchema =>
      depth === 0
        ? { type: 'string' }
        : { type: 'object', description: `d${depth}`, properties: { [`k${depth}`]: deep(depth - 1) } };
    const schema: JsonSchema = { type: 'object', properties: { top: deep(6) } };
    const beforeCollapse = compactParameters(schema, 10_000);
    expect(beforeCollapse.steps).toEqual([]);
    const expected = {
      type: 'object',
      properties: {
        top: {
          type: 'object',
          properties: {
            k6: { type: 'object', properties: { k5: { type: 'object', properties: { k4: { type: 'object' } } } } },
          },
        },
      },
    };
    const result = compactParameters(schema, jsonBytes(expected));
    expect(result.steps).toEqual(['strip_nested_descriptions', 'strip_property_descriptions', 'collapse_deep_objects']);
    expect(result.parameters).toEqual(expected);
  });

  it('drops compositions, widening them to {}', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        v: { anyOf: [{ type: 'string', minLength: 3 }, { type: 'integer', minimum: 10 }, { type: 'null' }] },
        w: { allOf: [{ type: 'object', properties: { q: { type: 'string' } } }] },
      },
      required: ['v'],
    };
    const expected = { type: 'object', properties: { v: {}, w: {} }, required: ['v'] };
    const result = compactParameters(schema, jsonBytes(expected));
    expect(result.steps.at(-1)).toBe('drop_compositions');
    expect(result.parameters).toEqual(expected);
  });

  it('falls back to an open object when nothing else fits', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`field_${index}`, { type: 'string' }])),
    };
    const result = compactParameters(schema, 200);
    expect(result.parameters).toEqual(OPEN_OBJECT_SCHEMA);
    expect(result.steps.at(-1)).toBe('open_object');
  });

  it('drops unevaluatedProperties when widening, so evaluated keys are not rejected', () => {
    const schema: JsonSchema = {
      type: 'object',
      allOf: [{ $ref: '#/$defs/Base' }],
      properties: { extra: { type: 'string', description: 'e'.repeat(40) } },
      unevaluatedProperties: false,
      $defs: { Base: { properties: { id: { type: 'integer' } } } },
    };
    const value = { id: 1, extra: 'x' };
    expect(accepts(schema, value)).toBe(true);
    const result = compactParameters(schema, 70);
    expect(result.steps).toContain('drop_definitions');
    expect(accepts(result.parameters, value)).toBe(true);
  });
});

describe('compactToolSchema', () => {
  it('clips the description and compacts the parameters, or returns the schema itself', () => {
    const schema = { name: 't', description: 'd'.repeat(2000), parameters: { type: 'object', properties: {} } };
    const compacted = compactToolSchema(schema, THIRD_PARTY_SCHEMA_COMPACTION);
    expect(new TextEncoder().encode(compacted.description).length).toBe(1000);
    expect(compacted.parameters).toBe(schema.parameters);
    const small = { name: 't', description: 'Short.', parameters: { type: 'object' } };
    expect(compactToolSchema(small, THIRD_PARTY_SCHEMA_COMPACTION)).toBe(small);
  });
});

// ----- property tests -----

const names = ['a', 'b', 'c', 'd'] as const;

const leaf = fc.oneof(
  fc.constant<JsonSchema>({ type: 'string' }),
  fc.constant<JsonSchema>({ type: 'integer', description: 'An integer with a long description.' }),
  fc.constant<JsonSchema>({ type: 'number', minimum: 0 }),
  fc.constant<JsonSchema>({ type: 'boolean' }),
  fc.constant<JsonSchema>({ enum: ['x', 'y', 1] }),
  fc.constant<JsonSchema>({}),
  fc.constant<JsonSchema>({ $ref: '#/$defs/Shared' }),
);

const schemaArb: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .record({
        properties: fc.dictionary(fc.constantFrom(...names), tie('node'), { maxKeys: 3 }),
        closed: fc.boolean(),
        description: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        required: fc.subarray([...names]),
      })
      .map(({ properties, closed, description, required }) => ({
        type: 'object',
        properties,
        required: required.filter((name) => name in properties),
        ...(closed ? { additionalProperties: false } : {}),
        ...(description === undefined ? {} : { description }),
      })),
    tie('node').map((items) => ({ type: 'array', items, description: 'A list.' })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.array(tie('node'), { minLength: 1, maxLength: 2 }).map((allOf) => ({ allOf })),
  ),
})).node;

const rootArb = fc
  .record({
    properties: fc.dictionary(fc.constantFrom(...names), schemaArb, { minKeys: 1, maxKeys: 4 }),
    required: fc.subarray([...names]),
    shared: schemaArb.filter((schema) => !JSON.stringify(schema).includes('$ref')),
    unused: fc.boolean(),
  })
  .map(({ properties, required, shared, unused }) => ({
    type: 'object',
    properties,
    required: required.filter((name) => name in properties),
    $defs: { Shared: shared, ...(unused ? { Unused: { type: 'string', description: 'never used'.repeat(10) } } : {}) },
  }));

/** Values shaped like the schema most of the time, so the original accepts a useful share. */
function valueFor(schema: unknown, defs: Record<string, unknown>, depth = 0): fc.Arbitrary<unknown> {
  const node = (schema ?? {}) as Record<string, unknown>;
  if (depth > 6) return fc.constant(null);
  if (typeof node.$ref === 'string') return valueFor(defs.Shared, defs, depth + 1);
  if (Array.isArray(node.anyOf)) return fc.oneof(...node.anyOf.map((item) => valueFor(item, defs, depth + 1)));
  if (Array.isArray(node.allOf) && node.allOf.length > 0) return valueFor(node.allOf[0], defs, depth + 1);
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
  switch (node.type) {
    case 'string':
      return fc.string({ maxLength: 5 });
    case 'integer':
      return fc.integer({ min: -5, max: 5 });
    case 'number':
      return fc.double({ min: 0, max: 10, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(node.items, defs, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const entries = Object.entries(properties).map(([key, sub]) => [key, valueFor(sub, defs, depth + 1)] as const);
      return fc.record(Object.fromEntries(entries), { requiredKeys: (node.required as string[]) ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

describe('compactParameters properties', () => {
  it('never exceeds the budget unless it falls back to the open object, which it never exceeds further', () => {
    fc.assert(
      fc.property(rootArb, fc.integer({ min: 0, max: 1500 }), (schema, budget) => {
        const result = compactParameters(schema, budget);
        if (result.parameters === OPEN_OBJECT_SCHEMA) return;
        expect(jsonBytes(result.parameters)).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 300 },
    );
  });

  it('never rejects a value the declared schema accepts', () => {
    const cases = rootArb.chain((schema) =>
      fc.tuple(
        fc.constant(schema),
        fc.array(valueFor(schema, schema.$defs as Record<string, unknown>), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 30, max: 1500 }),
      ),
    );
    let checked = 0;
    fc.assert(
      fc.property(cases, ([schema, values, budget]) => {
        const compacted = compactParameters(schema, budget).parameters;
        for (const value of values) {
          if (!accepts(schema, value)) continue;
          checked += 1;
          expect(accepts(compacted, value), JSON.stringify({ schema, compacted, value })).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});
