import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { Type } from 'typebox';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { defineTool } from '../tool/define-tool.js';
import { executeTool } from '../tool/execute-tool.js';
import { SchemaCompileFailure } from '../validation/create-validator.js';
import { isStandardSchema, resolveSchema } from './resolve-schema.js';

const define = (parameters: unknown) => () =>
  defineTool({ name: 'probe', description: 'Probe.', parameters: parameters as never, execute: () => 'ok' });

describe('resolveSchema', () => {
  it('passes TypeBox and raw JSON Schema through as the same object', () => {
    const typebox = Type.Object({ a: Type.String() });
    const raw = { type: 'object', properties: { a: { type: 'string' } } };
    expect(resolveSchema(typebox).jsonSchema).toBe(typebox);
    expect(resolveSchema(raw).jsonSchema).toBe(raw);
    expect(resolveSchema(raw).standard).toBeUndefined();
  });

  it('takes the JSON Schema side of Zod, Valibot and ArkType, normalized, and keeps the library', () => {
    const zod = z.object({ a: z.string() });
    const resolved = resolveSchema(zod);
    expect(resolved.standard).toBe(zod);
    expect(resolved.vendor).toBe('zod');
    expect(resolved.jsonSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
    expect(resolveSchema(zod)).toBe(resolved);
    expect(resolveSchema(toStandardJsonSchema(v.object({ a: v.string() }))).jsonSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
    expect(resolveSchema(type({ a: "'x' | 'y'" })).jsonSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string', enum: ['x', 'y'] } },
      required: ['a'],
    });
  });

  it('describes the output side when asked (after transforms)', () => {
    const schema = z.object({ n: z.string().pipe(z.coerce.number()) });
    expect(resolveSchema(schema, 'output').jsonSchema).toMatchObject({ properties: { n: { type: 'number' } } });
  });

  it('recognises Standard Schema values', () => {
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isStandardSchema(type('string'))).toBe(true);
    expect(isStandardSchema({ type: 'string' })).toBe(false);
  });
});

describe('refusals at definition time', () => {
  it('refuses Zod 3 with the upgrade advice', () => {
    const old = z3.object({ a: z3.string() });
    expect(() => resolveSchema(old as never)).toThrow(SchemaCompileFailure);
    expect(define(old)).toThrow(ToolDefinitionError);
    expect(define(old)).toThrow(
      /Zod 3 is not supported: upgrade to zod ≥ 4.2 .*zodToJsonSchema\(schema\) from the zod-to-json-schema package/,
    );
    // z.toJSONSchema exists only in Zod 4: advice to call it would fail on the Zod 3 the user has.
    expect(define(old)).not.toThrow(/z\.toJSONSchema/);
  });

  it('refuses a validation-only Standard Schema, saying what to do', () => {
    expect(define(v.object({ a: v.string() }))).toThrow(/toStandardJsonSchema\(\) from @valibot\/to-json-schema/);
    const bare = {
      '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) },
    };
    expect(define(bare)).toThrow(
      /pass a JSON Schema with it or use a library version that implements StandardJSONSchemaV1/,
    );
  });

  it('refuses a non-object root from every kind', () => {
    expect(define(z.string())).toThrow(/`type: "object"` at its root/);
    expect(define(type('string'))).toThrow(/`type: "object"` at its root/);
    expect(define(Type.String())).toThrow(/`type: "object"` at its root/);
  });

  it('refuses a schema the library cannot describe as JSON Schema', () => {
    expect(define(z.object({ when: z.date() }))).toThrow(/cannot be described as JSON Schema/);
  });
});

describe('executeTool with a Standard Schema tool', () => {
  it('runs ajv, then the library, and hands execute the library output', async () => {
    const tool = defineTool({
      name: 'greet',
      description: 'Greet.',
      parameters: z.object({ name: z.string().trim().min(1), times: z.number().int().default(1) }),
      execute: (args) => `${args.name} x${args.times}`,
    });
    expect((await executeTool(tool, { name: '  Ada ' })).output()).toBe('Ada x1');
    await expect(executeTool(tool, { name: '   ' })).rejects.toMatchObject({
      name: 'ToolInputError',
      issues: [{ path: '/name', keyword: 'library' }],
    });
    // The ajv gate answers first, with JSON Schema keywords.
    await expect(executeTool(tool, { name: 5 })).rejects.toMatchObject({
      issues: [{ path: '/name', keyword: 'type' }],
    });
  });
});
