import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { Type } from 'typebox';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ToolResult } from '../result/tool-result.js';
import { defineTool } from './define-tool.js';

describe('defineTool infers execute arguments from every schema kind', () => {
  it('TypeBox', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) }),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number }>();
        return 'ok';
      },
    });
  });

  it('JSON Schema: typed from a literal (TypeBox reads JSON Schema types), else a record', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ city: string }>();
        return 'ok';
      },
    });
    const loaded: Record<string, unknown> = JSON.parse('{"type":"object"}');
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: loaded,
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return 'ok';
      },
    });
  });

  it('Zod (the output type: transforms and defaults applied)', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: z.object({
        city: z.string(),
        days: z.number().int().default(1),
        name: z.string().transform((name) => name.length),
        unit: z.enum(['c', 'f']).optional(),
      }),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; name: number; unit?: 'c' | 'f' | undefined }>();
        // @ts-expect-error: not a declared property
        args.country;
        return 'ok';
      },
    });
  });

  it('Valibot (through toStandardJsonSchema)', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number()) })),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        return 'ok';
      },
    });
  });

  it('ArkType', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: type({ city: 'string', 'days?': 'number' }),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number }>();
        return 'ok';
      },
    });
  });
});

describe('object roots only', () => {
  it('refuses a non-object schema at compile time where the type says so', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      // @ts-expect-error: a TypeBox string is not an object schema
      parameters: Type.String(),
      execute: () => 'ok',
    });
    defineTool({
      name: 'a',
      description: 'A.',
      // @ts-expect-error: a Zod string is not an object schema
      parameters: z.string(),
      execute: () => 'ok',
    });
    defineTool({
      name: 'a',
      description: 'A.',
      // @ts-expect-error: a literal JSON Schema whose type is not object
      parameters: { type: 'array', items: {} },
      execute: () => 'ok',
    });
  });
});

describe('output schemas type what execute returns', () => {
  it('Zod output: the input type of the output schema, or a ToolResult', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: z.object({}),
      outputSchema: z.object({ count: z.number() }),
      execute: () => ({ count: 1 }),
    });
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: z.object({}),
      outputSchema: z.object({ count: z.number() }),
      execute: async () => ToolResult.json({ count: 1 }),
    });
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: z.object({}),
      outputSchema: z.object({ count: z.number() }),
      // @ts-expect-error: count must be a number
      execute: () => ({ count: 'one' }),
    });
  });

  it('TypeBox output', () => {
    defineTool({
      name: 'a',
      description: 'A.',
      parameters: Type.Object({}),
      outputSchema: Type.Object({ ok: Type.Boolean() }),
      // @ts-expect-error: ok must be a boolean
      execute: () => ({ ok: 'yes' }),
    });
  });
});
