import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderTypeScriptSignature } from './render-typescript-signature.js';
import { renderTypeScriptType } from './render-typescript-type.js';

const tool = (parameters: ToolSchema['parameters'], description = 'Does things.'): ToolSchema => ({
  name: 'f',
  description,
  parameters,
});

/** An object schema nested `levels` deep, the innermost holding one string. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { x: schema }, required: ['x'] };
  return schema;
}

describe('renderTypeScriptSignature', () => {
  it('writes required parameters first and optional ones with ?', () => {
    const schema = { properties: { b: { type: 'integer' }, a: { type: 'string' } }, required: ['a'] };
    expect(renderTypeScriptSignature(tool(schema))).toBe('function f(a: string, b?: number): string;  // Does things.');
  });

  it('collapses the description and drops an empty comment', () => {
    expect(renderTypeScriptSignature(tool({}, 'One\ntwo'))).toBe('function f(): string;  // One two');
    expect(renderTypeScriptSignature(tool({}, ''))).toBe('function f(): string;');
  });
});

describe('renderTypeScriptType', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: 'integer' }, 'number'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'null' }, 'null'],
    [{ type: 'array' }, 'unknown[]'],
    [{ type: 'array', items: { type: 'string' } }, 'string[]'],
    [{ type: 'array', items: { enum: ['a', 'b'] } }, '("a" | "b")[]'],
    [{ enum: ['a', 'b'] }, '"a" | "b"'],
    [{ enum: [1, false, null] }, '1 | false | null'],
    [{ const: 'x' }, '"x"'],
    [{ anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'number' }] }, 'string | number'],
    [{ allOf: [{ type: 'boolean' }, { type: 'string' }] }, 'boolean'],
    [{ type: ['integer', 'null'] }, 'number | null'],
    [{ type: 'string', nullable: true }, 'string | null'],
    [{ type: 'object' }, 'object'],
    [{ type: 'object', additionalProperties: { type: 'integer' } }, 'Record<string, number>'],
    [
      { type: 'object', properties: { a: { type: 'string' }, 'b-c': { type: 'integer' } }, required: ['a'] },
      '{ a: string; "b-c"?: number }',
    ],
    [{ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }, '{ id?: number }[]'],
    [{}, 'unknown'],
  ])('renders %j as %s', (schema, expected) => {
    expect(renderTypeScriptType(schema)).toBe(expected);
  });

  it('inlines objects to depth 4, then writes object', () => {
    expect(renderTypeScriptType(nested(4))).toBe('{ x: { x: { x: { x: string } } } }');
    expect(renderTypeScriptType(nested(5))).toBe('{ x: { x: { x: { x: object } } } }');
  });

  it('inlines at most 16 properties', () => {
    const properties = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' }]));
    expect(renderTypeScriptType({ type: 'object', properties: properties(16) })).toContain('p15?: string }');
    expect(renderTypeScriptType({ type: 'object', properties: properties(17) })).toBe('object');
  });
});
