import type { AgentHarness } from '@tiny/harness';
import { Type } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { invokeStructured } from '../run/invoke-structured.js';
import type { StructuredRun } from '../run/structured-attempt.js';
import { type InferResponseFormat, ResponseFormat } from './response-format.js';

declare const harness: AgentHarness;

const Person = Type.Object({ name: Type.String(), age: Type.Integer(), nickname: Type.Optional(Type.String()) });
type Person = { name: string; age: number; nickname?: string };

describe('ResponseFormat typing', () => {
  it('infers the parsed type from a TypeBox schema, for every factory', () => {
    expectTypeOf<InferResponseFormat<ReturnType<typeof ResponseFormat.auto<typeof Person>>>>().toEqualTypeOf<Person>();
    const formats = [
      ResponseFormat.auto({ name: 'person', schema: Person }),
      ResponseFormat.provider({ name: 'person', schema: Person }),
      ResponseFormat.tool({ name: 'person', schema: Person }),
      ResponseFormat.prompted({ name: 'person', schema: Person }, 'JSON please'),
      ResponseFormat.jsonSchema(Person),
    ] as const;
    expectTypeOf<InferResponseFormat<(typeof formats)[number]>>().toEqualTypeOf<Person>();
  });

  it('types parsed on the structured run', async () => {
    const run = await invokeStructured(harness, {}, [], ResponseFormat.auto({ name: 'person', schema: Person }));
    expectTypeOf(run).toEqualTypeOf<StructuredRun<Person>>();
    expectTypeOf(run.parsed).toEqualTypeOf<Person>();
    expectTypeOf(run.parsed.nickname).toEqualTypeOf<string | undefined>();
  });

  it('types a union as the union of its variants', async () => {
    const Answer = Type.Union([Type.Object({ city: Type.String() }), Type.Object({ reason: Type.String() })]);
    const run = await invokeStructured(harness, {}, [], ResponseFormat.tool({ name: 'answer', schema: Answer }));
    expectTypeOf(run.parsed).toEqualTypeOf<{ city: string } | { reason: string }>();
  });

  it('gives unknown for a raw JSON Schema, or the type named with jsonSchema<T>', async () => {
    const raw = ResponseFormat.auto({ name: 'raw', schema: { type: 'object' } as Record<string, unknown> });
    expectTypeOf<InferResponseFormat<typeof raw>>().toEqualTypeOf<unknown>();
    const named = ResponseFormat.jsonSchema<{ n: number }>({ type: 'object' });
    expectTypeOf<InferResponseFormat<typeof named>>().toEqualTypeOf<{ n: number }>();
  });

  it('leaves raw out of the type with includeRaw: false', async () => {
    const format = ResponseFormat.auto({ name: 'person', schema: Person });
    const withRaw = await invokeStructured(harness, {}, [], format);
    expectTypeOf(withRaw.raw.role).toEqualTypeOf<'assistant'>();
    const without = await invokeStructured(harness, {}, [], format, { includeRaw: false });
    expectTypeOf(without.raw).toEqualTypeOf<undefined>();
  });

  it('types the output validator value', () => {
    void invokeStructured(harness, {}, [], ResponseFormat.auto({ name: 'person', schema: Person }), {
      validate: (value) => {
        expectTypeOf(value).toEqualTypeOf<Person>();
      },
    });
  });

  it('types the parsed value of a Zod schema as its output (transforms applied)', () => {
    const format = ResponseFormat.tool({
      name: 'contact',
      schema: z.object({ name: z.string(), age: z.string().transform((text) => Number(text)) }),
    });
    expectTypeOf<InferResponseFormat<typeof format>>().toEqualTypeOf<{ name: string; age: number }>();
  });
});
