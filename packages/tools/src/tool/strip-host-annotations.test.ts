import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../validation/json-schema.js';
import { defineTool, modelFacingParameters } from './define-tool.js';
import { stripHostAnnotations } from './strip-host-annotations.js';

describe('stripHostAnnotations', () => {
  it('removes x-tiny-* keywords at every depth and leaves data and property names alone', () => {
    const schema = {
      type: 'object',
      'x-tiny-note': 'host only',
      properties: {
        'x-tiny-sensitive': { type: 'string', 'x-tiny-sensitive': true },
        token: { type: 'string', 'x-tiny-sensitive': true, 'x-vendor': 1 },
        list: { type: 'array', items: { anyOf: [{ type: 'string', 'x-tiny-sensitive': true }, { type: 'null' }] } },
        tuple: { type: 'array', prefixItems: [{ type: 'number', 'x-tiny-sensitive': true }] },
        map: { type: 'object', additionalProperties: { type: 'string', 'x-tiny-sensitive': true } },
        choice: { enum: ['x-tiny-sensitive'], default: { 'x-tiny-sensitive': true } },
      },
      $defs: { secret: { type: 'string', 'x-tiny-sensitive': true } },
    } as JsonSchema;
    const before = JSON.stringify(schema);
    const stripped = stripHostAnnotations(schema);
    expect(JSON.stringify(schema)).toBe(before);
    expect(JSON.stringify(stripped)).not.toMatch(/"x-tiny-sensitive":true(?!\})/);
    expect(stripped).toEqual({
      type: 'object',
      properties: {
        'x-tiny-sensitive': { type: 'string' },
        token: { type: 'string', 'x-vendor': 1 },
        list: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        tuple: { type: 'array', prefixItems: [{ type: 'number' }] },
        map: { type: 'object', additionalProperties: { type: 'string' } },
        choice: { enum: ['x-tiny-sensitive'], default: { 'x-tiny-sensitive': true } },
      },
      $defs: { secret: { type: 'string' } },
    });
  });

  it('returns the schema itself when it carries no annotation', () => {
    const schema = Type.Object({ a: Type.Array(Type.String()), b: Type.Union([Type.Number(), Type.Null()]) });
    expect(stripHostAnnotations(schema as unknown as JsonSchema)).toBe(schema);
  });

  it('is what the model-facing parameters of a tool show, while the tool keeps its annotations', () => {
    const tool = defineTool({
      name: 'login',
      description: 'Log in.',
      parameters: Type.Object({ user: Type.String(), token: Type.String({ 'x-tiny-sensitive': true }) }),
      execute: () => 'ok',
    });
    expect(JSON.stringify(modelFacingParameters(tool))).not.toContain('x-tiny');
    expect(JSON.stringify(tool.parameters)).toContain('x-tiny-sensitive');
  });
});
