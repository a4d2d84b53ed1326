import { InvalidInputError, type JsonSchema } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coerceToSchema } from './coerce-to-schema.js';

const objectOf = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
});

function coerced(args: unknown, schema: JsonSchema): unknown {
  return coerceToSchema(args, schema).value;
}

describe('coerceToSchema', () => {
  it('refuses a schema that is not one with a typed error naming it, and leaves boolean schemas alone', () => {
    for (const schema of [null, undefined, 'object', [], 5]) {
      expect(() => coerceToSchema({ a: 1 }, schema as never)).toThrow(InvalidInputError);
      expect(() => coerceToSchema({ a: 1 }, schema as never)).toThrow(/coerceToSchema: `schema`/);
    }
    expect(coerceToSchema({ a: 1 }, true as never)).toEqual({ value: { a: 1 }, changed: false });
  });

  it('converts scalars to the declared types', () => {
    const schema = objectOf({
      n: { type: 'integer' },
      f: { type: 'number' },
      b: { type: 'boolean' },
      list: { type: 'array', items: { type: 'string' } },
      nested: { type: 'object', properties: { k: { type: 'integer' } } },
      s: { type: 'string' },
    });
    const args = { n: '42', f: '3.5', b: 'true', list: '["a","b"]', nested: '{"k":"7"}', s: 5, extra: 'x' };
    expect(coerceToSchema(args, schema)).toEqual({
      value: { n: 42, f: 3.5, b: true, list: ['a', 'b'], nested: { k: 7 }, s: '5', extra: 'x' },
      changed: true,
    });
  });

  it('makes integers only from integer text', () => {
    const schema = objectOf({ n: { type: 'integer' } });
    expect(coerced({ n: '42' }, schema)).toEqual({ n: 42 });
    expect(coerced({ n: '-7' }, schema)).toEqual({ n: -7 });
    expect(coerced({ n: ' 8 ' }, schema)).toEqual({ n: 8 });
    expect(coerced({ n: '42.0' }, schema)).toEqual({ n: '42.0' });
    expect(coerced({ n: '4.2e1' }, schema)).toEqual({ n: '4.2e1' });
    expect(coerced({ n: '007' }, schema)).toEqual({ n: '007' });
    expect(coerced({ n: '+5' }, schema)).toEqual({ n: '+5' });
    expect(coerced({ n: '12345678901234567890' }, schema)).toEqual({ n: '12345678901234567890' });
    expect(coerced({ n: 4.5 }, schema)).toEqual({ n: 4.5 });
    // JSON `1.0` parses to the number 1, which is an integer: nothing to coerce.
    expect(coerceToSchema(JSON.parse('{"n": 1.0}'), schema)).toEqual({ value: { n: 1 }, changed: false });
    const either = objectOf({ n: { type: ['integer', 'number'] } });
    expect(coerced({ n: '42.0' }, either)).toEqual({ n: 42 });
  });

  it('converts number text for number properties', () => {
    const schema = objectOf({ f: { type: 'number' } });
    expect(coerced({ f: '3.5' }, schema)).toEqual({ f: 3.5 });
    expect(coerced({ f: '1e3' }, schema)).toEqual({ f: 1000 });
    expect(coerced({ f: '-0.25' }, schema)).toEqual({ f: -0.25 });
    expect(coerced({ f: '.5' }, schema)).toEqual({ f: '.5' });
    expect(coerced({ f: 'NaN' }, schema)).toEqual({ f: 'NaN' });
    expect(coerced({ f: '1e999' }, schema)).toEqual({ f: '1e999' });
  });

  it('converts the three spellings of each boolean', () => {
    const schema = objectOf({ b: { type: 'boolean' } });
    for (const spelling of ['true', 'True', 'TRUE']) expect(coerced({ b: spelling }, schema)).toEqual({ b: true });
    for (const spelling of ['false', 'False', 'FALSE']) expect(coerced({ b: spelling }, schema)).toEqual({ b: false });
    expect(coerced({ b: 'yes' }, schema)).toEqual({ b: 'yes' });
    expect(coerced({ b: 1 }, schema)).toEqual({ b: 1 });
  });

  it('turns "null" into null only where null is allowed', () => {
    expect(coerced({ n: 'null' }, objectOf({ n: { type: ['integer', 'null'] } }))).toEqual({ n: null });
    expect(coerced({ n: 'null' }, objectOf({ n: { type: 'integer' } }))).toEqual({ n: 'null' });
    expect(coerced({ s: 'null' }, objectOf({ s: { type: ['string', 'null'] } }))).toEqual({ s: 'null' });
  });

  it('reads type arrays and nullable unions', () => {
    expect(coerced({ n: '5' }, objectOf({ n: { type: ['null', 'integer'] } }))).toEqual({ n: 5 });
    const union = objectOf({ n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } });
    expect(coerced({ n: '5' }, union)).toEqual({ n: 5 });
    expect(coerced({ n: 'null' }, union)).toEqual({ n: null });
    const nested = objectOf({ o: { oneOf: [{ type: 'null' }, objectOf({ k: { type: 'integer' } })] } });
    expect(coerced({ o: { k: '3' } }, nested)).toEqual({ o: { k: 3 } });
  });

  it('never converts a string the property already allows', () => {
    expect(coerced({ v: '42' }, objectOf({ v: { type: ['string', 'integer'] } }))).toEqual({ v: '42' });
  });

  it('wraps scalars for arrays and coerces items', () => {
    const list = objectOf({ l: { type: 'array' } });
    expect(coerced({ l: '5' }, list)).toEqual({ l: [5] });
    expect(coerced({ l: 'solo' }, list)).toEqual({ l: ['solo'] });
    expect(coerced({ l: 3 }, list)).toEqual({ l: [3] });
    expect(coerced({ l: true }, list)).toEqual({ l: [true] });
    expect(coerced({ l: ['a', 1, true] }, list)).toEqual({ l: ['a', 1, true] });
    const integers = objectOf({ l: { type: 'array', items: { type: 'integer' } } });
    expect(coerced({ l: ['1', '2'] }, integers)).toEqual({ l: [1, 2] });
    expect(coerced({ l: '["1", 2]' }, integers)).toEqual({ l: [1, 2] });
    expect(coerced({ l: '7' }, integers)).toEqual({ l: [7] });
    const objects = objectOf({
      l: { type: 'array', items: objectOf({ k: { type: 'integer' } }) },
    });
    expect(coerced({ l: ['{"k":"7"}'] }, objects)).toEqual({ l: [{ k: 7 }] });
    const tuple = objectOf({ t: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }] } });
    expect(coerced({ t: ['1', 'True', 'x'] }, tuple)).toEqual({ t: [1, true, 'x'] });
  });

  it('decodes object strings, relaxed ones too, and coerces nested objects', () => {
    const schema = objectOf({ skill: { type: 'string' }, args: { type: 'object', additionalProperties: true } }, [
      'skill',
    ]);
    for (const raw of [
      '{"query": "inbox",}',
      '{query: "inbox"}',
      '```json\n{"query":"inbox"}\n```',
      '{"query":"inbox"}<tool_call|>',
    ]) {
      expect(coerced({ skill: 'email', args: raw }, schema), raw).toEqual({ skill: 'email', args: { query: 'inbox' } });
    }
    expect(coerced({ args: 'not json' }, schema)).toEqual({ args: 'not json' });
    const nested = objectOf({ o: objectOf({ k: { type: 'integer' } }) });
    expect(coerced({ o: { k: '7' } }, nested)).toEqual({ o: { k: 7 } });
  });

  it('drops null for optional non-nullable properties and keeps it otherwise', () => {
    const schema = objectOf(
      {
        skill: { type: 'string' },
        tool: { type: 'string' },
        args: { type: 'object' },
        maybe: { type: ['string', 'null'] },
        untyped: {},
      },
      ['skill'],
    );
    expect(coerced({ skill: 'email', tool: null, args: null, maybe: null, untyped: null }, schema)).toEqual({
      skill: 'email',
      maybe: null,
      untyped: null,
    });
    expect(coerced({ skill: null }, schema)).toEqual({ skill: null });
  });

  it('leaves unconvertible values for the validator', () => {
    const schema = objectOf({ n: { type: 'integer' }, o: { type: 'object' }, s: { type: 'string' } });
    expect(coerceToSchema({ n: 'many', o: [1], s: true }, schema)).toEqual({
      value: { n: 'many', o: [1], s: true },
      changed: false,
    });
  });

  it('passes non-objects and schemas without properties through', () => {
    const list = ['not', 'an', 'object'];
    expect(coerceToSchema(list, objectOf({ n: { type: 'integer' } }))).toEqual({ value: list, changed: false });
    const args = { x: 1, y: 'z' };
    expect(coerceToSchema(args, { type: 'object' }).value).toBe(args);
  });

  it('returns the input itself when nothing changes and never mutates it', () => {
    const schema = objectOf({ n: { type: 'integer' }, l: { type: 'array', items: { type: 'integer' } } });
    const clean = { n: 1, l: [1, 2] };
    expect(coerceToSchema(clean, schema)).toEqual({ value: clean, changed: false });
    expect(coerceToSchema(clean, schema).value).toBe(clean);
    const dirty = { n: '1', l: ['2'], keep: { deep: true } };
    const snapshot = structuredClone(dirty);
    const result = coerceToSchema(dirty, schema);
    expect(result.changed).toBe(true);
    expect(dirty).toEqual(snapshot);
    expect((result.value as typeof dirty).keep).toBe(dirty.keep);
  });

  it('sets a __proto__ key as data, not as the prototype', () => {
    const schema = objectOf({ ['__proto__']: { type: 'integer' } });
    const args = JSON.parse('{"__proto__": "5"}') as Record<string, unknown>;
    const value = coerced(args, schema) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(5);
  });

  it('never throws and never mutates its input', () => {
    const schema = objectOf({
      a: { type: 'integer' },
      b: { type: ['array', 'null'], items: { type: 'number' } },
      c: objectOf({ d: { type: 'boolean' } }),
      e: { type: 'string' },
    });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'c', 'e', 'z'), fc.jsonValue()), (args) => {
        const snapshot = structuredClone(args);
        const result = coerceToSchema(args, schema);
        expect(args).toEqual(snapshot);
        expect(result.changed).toBe(result.value !== args);
      }),
    );
  });
});

describe('coerceToSchema with a self-referencing schema object', () => {
  it('stops at a fixed depth instead of overflowing the stack', () => {
    const node: { type: string; properties: Record<string, unknown> } = { type: 'object', properties: {} };
    node.properties.child = node;
    node.properties.n = { type: 'integer' };
    let args: Record<string, unknown> = { n: '1' };
    for (let level = 0; level < 10_000; level++) args = { child: args, n: '2' };
    const result = coerceToSchema(args, node).value as { n: unknown; child: { n: unknown } };
    expect(result.n).toBe(2);
    expect(result.child.n).toBe(2);
  });
});
