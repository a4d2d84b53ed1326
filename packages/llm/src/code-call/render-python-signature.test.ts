import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderPythonSignature } from './render-python-signature.js';
import { renderPythonType } from './render-python-type.js';

const tool = (parameters: ToolSchema['parameters'], description = 'Does things.'): ToolSchema => ({
  name: 'f',
  description,
  parameters,
});

describe('renderPythonSignature', () => {
  it('writes required parameters first and optional ones with = None', () => {
    const schema = { properties: { b: { type: 'integer' }, a: { type: 'string' } }, required: ['a'] };
    expect(renderPythonSignature(tool(schema))).toBe('def f(a: str, b: int = None) -> str  # Does things.');
  });

  it('collapses the description to one line and drops an empty comment', () => {
    expect(renderPythonSignature(tool({}, '  Line one.\n\n  Line two.  '))).toBe(
      'def f() -> str  # Line one. Line two.',
    );
    expect(renderPythonSignature(tool({}, ' \n '))).toBe('def f() -> str');
  });

  it('renders a required parameter without a property as Any', () => {
    expect(renderPythonSignature(tool({ required: ['x'] }, ''))).toBe('def f(x: Any) -> str');
  });
});

describe('renderPythonType', () => {
  it.each([
    [{ type: 'string' }, 'str'],
    [{ type: 'integer' }, 'int'],
    [{ type: 'number' }, 'float'],
    [{ type: 'boolean' }, 'bool'],
    [{ type: 'null' }, 'None'],
    [{ type: 'object', properties: { a: { type: 'string' } } }, 'dict'],
    [{ properties: {} }, 'dict'],
    [{ type: 'array' }, 'list'],
    [{ type: 'array', items: { type: 'object' } }, 'list[dict]'],
    [{ type: 'array', items: { type: 'array', items: { type: 'integer' } } }, 'list[list[int]]'],
    [{ type: 'array', items: { type: ['string', 'null'] } }, 'list[str | None]'],
    [{ enum: ['a', 'b'] }, 'Literal["a", "b"]'],
    [{ type: 'string', enum: ['say "hi"'] }, 'Literal["say \\"hi\\""]'],
    [{ enum: [1, true, null] }, 'Literal[1, True, None]'],
    [{ const: 'x' }, 'Literal["x"]'],
    [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'str | int'],
    [{ oneOf: [{ type: 'string' }, { type: 'string' }] }, 'str'],
    [{ allOf: [{ type: 'integer' }, { type: 'string' }] }, 'int'],
    [{ type: ['string', 'null'] }, 'str | None'],
    [{ type: 'string', nullable: true }, 'str | None'],
    [{ anyOf: [{ type: 'string' }, {}] }, 'Any'],
    [{ $ref: '#/$defs/x' }, 'Any'],
    [{}, 'Any'],
  ])('renders %j as %s', (schema, expected) => {
    expect(renderPythonType(schema)).toBe(expected);
  });
});
