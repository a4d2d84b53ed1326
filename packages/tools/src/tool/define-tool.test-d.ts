import { Type } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import { defineTool } from './define-tool.js';
import { executeTool } from './execute-tool.js';
import type { AnyTool } from './tool.js';
import type { ToolExecutionContext } from './tool-execution-context.js';

describe('defineTool inference', () => {
  it('types execute arguments from a TypeBox schema', () => {
    defineTool({
      name: 'weather',
      description: 'Weather.',
      parameters: Type.Object({
        city: Type.String(),
        days: Type.Optional(Type.Integer()),
        unit: Type.Union([Type.Literal('c'), Type.Literal('f')]),
        tags: Type.Array(Type.String()),
      }),
      execute(args, context) {
        expectTypeOf(args.city).toEqualTypeOf<string>();
        expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
        expectTypeOf(args.unit).toEqualTypeOf<'c' | 'f'>();
        expectTypeOf(args.tags).toEqualTypeOf<string[]>();
        expectTypeOf(context).toEqualTypeOf<ToolExecutionContext>();
        // @ts-expect-error: not a declared property
        args.country;
        return args.city;
      },
    });
  });

  it('types the optional members from the same arguments', () => {
    defineTool({
      name: 'delete_file',
      description: 'Delete.',
      parameters: Type.Object({ path: Type.String() }),
      isConcurrencySafe(args) {
        expectTypeOf(args).toEqualTypeOf<{ path: string }>();
        return false;
      },
      execute: () => undefined,
    });
  });

  it('gives raw JSON Schema tools Record<string, unknown> arguments', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: { a: { type: 'string' } } };
    defineTool({
      name: 'raw',
      description: 'Raw.',
      parameters: schema,
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return null;
      },
    });
  });

  it('rejects an execute that returns something that is not a tool output', () => {
    defineTool({
      name: 'bad',
      description: 'Bad.',
      parameters: Type.Object({}),
      // @ts-expect-error: a function is not a ToolOutput
      execute: () => () => 1,
    });
  });
});

describe('AnyTool', () => {
  it('accepts tools of different argument types in one list', () => {
    const a = defineTool({
      name: 'a',
      description: '',
      parameters: Type.Object({ x: Type.String() }),
      execute: () => '',
    });
    const b = defineTool({
      name: 'b',
      description: '',
      parameters: Type.Object({ y: Type.Number() }),
      execute: () => '',
    });
    const tools: AnyTool[] = [a, b];
    for (const tool of tools) void executeTool(tool, {});
    expectTypeOf(tools).toEqualTypeOf<AnyTool[]>();
  });
});
