import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOutputError } from '../errors/tool-output-error.js';
import { ToolResult } from '../result/tool-result.js';
import { defineTool } from './define-tool.js';
import { executeTool } from './execute-tool.js';

describe('tool output schemas', () => {
  it('keeps the JSON Schema of the output side on the tool, from any kind', () => {
    const zodTool = defineTool({
      name: 'stats',
      description: 'Stats.',
      parameters: z.object({}),
      outputSchema: z.object({ count: z.number().int(), mean: z.number() }),
      execute: () => ({ count: 2, mean: 1.5 }),
    });
    expect(zodTool.outputSchema).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) },
        mean: { type: 'number' },
      },
      required: ['count', 'mean'],
      additionalProperties: false,
    });
    const typeboxOutput = Type.Object({ ok: Type.Boolean() });
    const typeboxTool = defineTool({
      name: 'ping',
      description: 'Ping.',
      parameters: Type.Object({}),
      outputSchema: typeboxOutput,
      execute: () => ({ ok: true }),
    });
    expect(typeboxTool.outputSchema).toBe(typeboxOutput);
  });

  it('passes a matching result, with the library output in place', async () => {
    const tool = defineTool({
      name: 'when',
      description: 'When.',
      parameters: z.object({}),
      outputSchema: z.object({ at: z.string(), tags: z.array(z.string()).default([]) }),
      execute: () => ({ at: '2024-01-01' }),
    });
    const result = await executeTool(tool, {});
    expect(result.content).toEqual([{ type: 'json', data: { at: '2024-01-01', tags: [] } }]);
  });

  it('throws ToolOutputError naming the mismatch: the tool is wrong, not the model', async () => {
    const tool = defineTool({
      name: 'stats',
      description: 'Stats.',
      parameters: Type.Object({}),
      outputSchema: Type.Object({ count: Type.Integer() }),
      execute: () => ({ count: 'two' }) as never,
    });
    const failure = await executeTool(tool, {}).catch((error: unknown) => error);
    expect(ToolOutputError.isInstance(failure)).toBe(true);
    expect((failure as ToolOutputError).issues).toEqual([
      { path: '/count', keyword: 'type', message: 'must be integer' },
    ]);
    expect((failure as Error).message).toBe(
      'tool `stats` returned output that does not match its output schema: /count must be integer',
    );
  });

  it('checks the JSON block of a ToolResult, and skips error results', async () => {
    let mode: 'good' | 'bad' | 'text' | 'error' = 'good';
    const tool = defineTool({
      name: 'lookup',
      description: 'Lookup.',
      parameters: Type.Object({}),
      outputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execute: async () => {
        if (mode === 'good')
          return ToolResult.fromContent([
            { type: 'text', text: 'found' },
            { type: 'json', data: { id: 'a' } },
          ]);
        if (mode === 'bad') return ToolResult.json({ id: 1 });
        if (mode === 'text') return ToolResult.success('no json');
        return ToolResult.error('not found');
      },
    });
    expect((await executeTool(tool, {})).content).toHaveLength(2);
    mode = 'bad';
    await expect(executeTool(tool, {})).rejects.toBeInstanceOf(ToolOutputError);
    mode = 'text';
    await expect(executeTool(tool, {})).rejects.toThrow(/has no JSON content/);
    mode = 'error';
    expect((await executeTool(tool, {})).isError).toBe(true);
  });

  it('refuses an output schema that cannot be described, at definition time', () => {
    expect(() =>
      defineTool({
        name: 'bad_out',
        description: 'Bad.',
        parameters: z.object({}),
        outputSchema: z.object({ n: z.string().transform((text) => text.length) }),
        execute: () => ({ n: 'abc' }),
      }),
    ).toThrow(/its output schema does not compile: .*output side/);
  });
});
