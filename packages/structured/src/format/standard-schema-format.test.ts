import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { invokeStructured } from '../run/invoke-structured.js';
import { ask, profiles, setup } from '../run/scripted-setup.test-helpers.js';
import { ResponseFormat } from './response-format.js';

const Contact = z.object({
  name: z.string().transform((name) => name.trim()),
  email: z.email(),
  age: z
    .number()
    .int()
    .refine((age) => age >= 18, 'must be an adult'),
});

describe('ResponseFormat with a Standard Schema (Zod 4)', () => {
  it('sends the JSON Schema and returns the library output (transforms applied)', async () => {
    const format = ResponseFormat.auto({ name: 'contact', schema: Contact });
    const { model, harness } = setup(
      [{ content: '{"name":"  Ada ","email":"ada@example.com","age":36}' }],
      profiles.native,
    );
    const result = await invokeStructured(harness, {}, ask, format);
    expect(result.parsed).toEqual({ name: 'Ada', email: 'ada@example.com', age: 36 });
    const sent = model.requests[0]?.responseFormat as { schema: Record<string, unknown> } | undefined;
    expect(sent?.schema).toMatchObject({ type: 'object', required: ['name', 'email', 'age'] });
    expect(sent?.schema.$schema).toBeUndefined();
  });

  it('retries a refinement failure with the library message, through the tool strategy too', async () => {
    const format = ResponseFormat.tool({ name: 'contact', schema: Contact });
    const { model, harness } = setup(
      [
        { toolCalls: [{ id: 'o1', name: 'contact', arguments: { name: 'Bo', email: 'bo@example.com', age: 12 } }] },
        { toolCalls: [{ id: 'o2', name: 'contact', arguments: { name: 'Bo', email: 'bo@example.com', age: 19 } }] },
      ],
      profiles.toolsOnly,
    );
    const result = await invokeStructured(harness, {}, ask, format);
    expect(result.parsed).toEqual({ name: 'Bo', email: 'bo@example.com', age: 19 });
    expect(result.validation.failures[0]?.kind).toBe('validation');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('/age must be an adult');
  });

  it('refuses Zod 3 when the format is built', () => {
    expect(() => ResponseFormat.auto({ name: 'x', schema: z3.object({ a: z3.string() }) as never })).toThrow(
      /Zod 3 is not supported/,
    );
  });
});
