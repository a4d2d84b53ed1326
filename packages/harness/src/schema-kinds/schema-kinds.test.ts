import { cleanSchema, type Message, messageText } from '@tiny/llm';
import { type AnyTool, defineTool, type ToolSchemaInput } from '@tiny/tools';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { Type } from 'typebox';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentHarness } from '../agent/agent-harness.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { ExternalToolSet } from '../toolsets/external-tool-set.js';
import { PreparedToolSet } from '../toolsets/prepared-tool-set.js';
import { toolSetFromTools } from '../toolsets/tool-set-from-tools.js';

/** The same tool, five ways: city (non-empty), unit (c | f), days (optional integer 1..14). */
const kinds: Record<string, ToolSchemaInput> = {
  typebox: Type.Object({
    city: Type.String({ minLength: 1 }),
    unit: Type.Unsafe<'c' | 'f'>({ type: 'string', enum: ['c', 'f'] }),
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 14 })),
  }),
  jsonSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      unit: { type: 'string', enum: ['c', 'f'] },
      days: { type: 'integer', minimum: 1, maximum: 14 },
    },
    required: ['city', 'unit'],
  },
  zod: z.object({
    city: z.string().min(1),
    unit: z.enum(['c', 'f']),
    days: z.number().int().min(1).max(14).optional(),
  }),
  valibot: toStandardJsonSchema(
    v.object({
      city: v.pipe(v.string(), v.minLength(1)),
      unit: v.picklist(['c', 'f']),
      days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14))),
    }),
  ),
  arktype: type({ city: 'string > 0', unit: "'c' | 'f'", 'days?': '1 <= number.integer <= 14' }),
};

/** Keyword order differs between libraries (TypeBox writes `required` first); meaning does not. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  // Keywords sorted; `properties` keeps the author's order (it is what the model reads).
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [
        key,
        key === 'properties'
          ? Object.fromEntries(Object.entries(record[key] as object).map(([name, child]) => [name, canonical(child)]))
          : canonical(record[key]),
      ]),
  );
}

function toolFor(parameters: ToolSchemaInput, log: unknown[]): AnyTool {
  return defineTool({
    name: 'forecast',
    description: 'Forecast for a city.',
    parameters: parameters as never,
    execute: (args) => {
      log.push(args);
      return 'ok';
    },
  }) as AnyTool;
}

const table: { label: string; args: unknown }[] = [
  { label: 'valid minimal', args: { city: 'Paris', unit: 'c' } },
  { label: 'valid full', args: { city: 'Oslo', unit: 'f', days: 3 } },
  { label: 'valid integer as 3.0', args: { city: 'Oslo', unit: 'f', days: 3.0 } },
  { label: 'empty city', args: { city: '', unit: 'c' } },
  { label: 'missing city', args: { unit: 'c' } },
  { label: 'bad enum', args: { city: 'Rome', unit: 'k' } },
  { label: 'fractional days', args: { city: 'Rome', unit: 'c', days: 1.5 } },
  { label: 'days out of range', args: { city: 'Rome', unit: 'c', days: 15 } },
  { label: 'repairable: number for a string', args: { city: 7, unit: 'c' } },
  { label: 'repairable: JSON string', args: '{"city":"Lima","unit":"c"}' },
  { label: 'repairable: envelope', args: { arguments: { city: 'Kyiv', unit: 'f' } } },
  { label: 'repairable: stringified integer', args: { city: 'Kyiv', unit: 'f', days: '2' } },
  { label: 'not repairable: array', args: [{ city: 'Kyiv', unit: 'f' }] },
];

async function admissionResults(parameters: ToolSchemaInput) {
  const log: unknown[] = [];
  const model = new ScriptedModel({
    steps: [
      { toolCalls: table.map((row, index) => scriptedToolCall('forecast', row.args, `c${index}`)) },
      { content: 'done' },
    ],
  });
  const run = await new AgentHarness({
    model,
    tools: [toolFor(parameters, log)],
    policy: { invalidArgs: 'normalize_then_return_tool_error' },
  }).invoke({}, [{ role: 'user', content: 'go' }]);
  const answers = run.messages
    .filter((message): message is Extract<Message, { role: 'tool' }> => message.role === 'tool')
    .map((message) => messageText(message));
  const recoveries = eventsOfType(run.events, 'invalid_tool_args').map((event) => `${event.callId}:${event.recovery}`);
  return { log, answers, recoveries, requestSchema: model.requests[0]?.tools?.[0]?.parameters };
}

describe('one tool declared five ways (TypeBox, JSON Schema, Zod, Valibot, ArkType)', () => {
  it('sends the model the same schema and admits the same calls with the same answers', async () => {
    const results = Object.fromEntries(
      await Promise.all(Object.entries(kinds).map(async ([kind, schema]) => [kind, await admissionResults(schema)])),
    ) as Record<string, Awaited<ReturnType<typeof admissionResults>>>;
    const reference = results.jsonSchema;
    if (reference === undefined) throw new Error('no reference');
    const referenceBytes = JSON.stringify(cleanSchema(reference.requestSchema as never));
    for (const [kind, result] of Object.entries(results)) {
      const bytes = JSON.stringify(cleanSchema(result.requestSchema as never));
      if (kind === 'typebox') expect(canonical(JSON.parse(bytes))).toEqual(canonical(JSON.parse(referenceBytes)));
      else expect(bytes, kind).toBe(referenceBytes);
      expect(result.log, kind).toEqual(reference.log);
      // Answers to invalid calls quote the schema; TypeBox's quote differs in keyword order only.
      const strip = (answers: string[]) => answers.map((answer) => answer.replace(/; expected schema: .*$/s, ''));
      expect(strip(result.answers), kind).toEqual(strip(reference.answers));
      if (kind !== 'typebox') expect(result.answers, kind).toEqual(reference.answers);
      expect(result.recoveries, kind).toEqual(reference.recoveries);
    }
    // The table itself: what ran, what was repaired, what was answered with an error.
    expect(reference.log).toEqual([
      { city: 'Paris', unit: 'c' },
      { city: 'Oslo', unit: 'f', days: 3 },
      { city: 'Oslo', unit: 'f', days: 3 },
      { city: '7', unit: 'c' },
      { city: 'Lima', unit: 'c' },
      { city: 'Kyiv', unit: 'f' },
      { city: 'Kyiv', unit: 'f', days: 2 },
    ]);
    expect(reference.answers.filter((answer) => answer.startsWith('invalid arguments'))).toHaveLength(6);
  });
});

describe('the library path: refinements and transforms', () => {
  async function runOne(tool: AnyTool, args: unknown) {
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall(tool.name, args, 'c1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [tool] }).invoke({}, [{ role: 'user', content: 'go' }]);
    const answer = run.messages.find((message) => message.role === 'tool');
    return messageText(answer as Message);
  }

  it('Zod: .email() and .refine() refuse through the library, .transform() output reaches execute', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'invite',
      description: 'Invite someone.',
      parameters: z.object({
        email: z.email(),
        name: z.string().transform((name) => name.trim().toUpperCase()),
        seats: z
          .number()
          .int()
          .min(1)
          .refine((seats) => seats % 2 === 0, 'seats must be even'),
      }),
      execute: (args) => {
        seen.push(args);
        return `invited ${args.name}`;
      },
    }) as AnyTool;
    expect(await runOne(tool, { email: 'ada@example.com', name: ' ada ', seats: 2 })).toBe('invited ADA');
    expect(seen).toEqual([{ email: 'ada@example.com', name: 'ADA', seats: 2 }]);
    const refined = await runOne(tool, { email: 'ada@example.com', name: 'x', seats: 3 });
    expect(refined).toContain('invalid arguments for tool `invite`: /seats seats must be even');
    const email = await runOne(tool, { email: 'not-an-email', name: 'x', seats: 2 });
    expect(email).toContain('/email');
    expect(seen).toHaveLength(1);
  });

  it('Valibot: a check() refinement and a default apply', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'book',
      description: 'Book a room.',
      parameters: toStandardJsonSchema(
        v.object({
          from: v.string(),
          to: v.string(),
          guests: v.optional(v.number(), 1),
        }),
      ),
      execute: (args) => {
        seen.push(args);
        return 'booked';
      },
    }) as AnyTool;
    expect(await runOne(tool, { from: 'a', to: 'b' })).toBe('booked');
    expect(seen).toEqual([{ from: 'a', to: 'b', guests: 1 }]);
  });

  it('ArkType: a narrowed predicate refuses through the library', async () => {
    const tool = defineTool({
      name: 'ratio',
      description: 'Set a ratio.',
      parameters: type({ low: 'number', high: 'number' }).narrow((value, ctx) =>
        value.low < value.high ? true : ctx.reject({ expected: 'low below high', path: ['low'] }),
      ),
      execute: (args) => `set ${args.low}..${args.high}`,
    }) as AnyTool;
    expect(await runOne(tool, { low: 1, high: 2 })).toBe('set 1..2');
    expect(await runOne(tool, { low: 3, high: 2 })).toContain('/low');
  });

  it('awaits an async library validate', async () => {
    const tool = defineTool({
      name: 'unique_name',
      description: 'Claim a name.',
      parameters: z.object({ name: z.string() }).refine(async ({ name }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return name !== 'taken';
      }, 'name is taken'),
      execute: (args) => `claimed ${args.name}`,
    }) as AnyTool;
    expect(await runOne(tool, { name: 'free' })).toBe('claimed free');
    expect(await runOne(tool, { name: 'taken' })).toContain('name is taken');
  });
});

describe('Standard Schemas in the other slots', () => {
  it('an external tool spec and registerExternal take a Zod schema; the model sees its JSON Schema', async () => {
    const external = new ExternalToolSet([
      {
        name: 'client_pick',
        description: 'Pick a file on the client.',
        parameters: z.object({ glob: z.string().min(1) }),
      },
    ]);
    const listing = await external.tools();
    expect(listing.tools[0]?.parameters).toEqual({
      type: 'object',
      properties: { glob: { type: 'string', minLength: 1 } },
      required: ['glob'],
    });
    const registry = new ToolRegistry().registerExternal({
      name: 'ext',
      description: 'External.',
      parameters: z.object({ id: z.uuid() }),
    });
    expect(registry.get('ext')?.schema.parameters).toMatchObject({ type: 'object', required: ['id'] });
    expect(() =>
      new ToolRegistry().registerExternal({ name: 'old', description: 'Old.', parameters: v.object({}) as never }),
    ).toThrow(/toStandardJsonSchema/);
  });

  it('a prepare callback may narrow a tool with a Zod schema; admission then runs that one', async () => {
    const log: unknown[] = [];
    const base = toolSetFromTools([toolFor(kinds.zod as ToolSchemaInput, log)]);
    const narrowed = new PreparedToolSet(base, (_context, declarations) =>
      declarations.map((declaration) => ({
        ...declaration,
        parameters: z.object({ city: z.enum(['Paris', 'Rome']), unit: z.literal('c') }),
      })),
    );
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('forecast', { city: 'Oslo', unit: 'c' }, 'c1'),
            scriptedToolCall('forecast', { city: 'Rome', unit: 'c' }, 'c2'),
          ],
        },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model }).withToolSet(narrowed).invoke({}, [{ role: 'user', content: 'go' }]);
    expect(model.requests[0]?.tools?.[0]?.parameters).toMatchObject({
      properties: { city: { type: 'string', enum: ['Paris', 'Rome'] }, unit: { type: 'string', const: 'c' } },
    });
    expect(log).toEqual([{ city: 'Rome', unit: 'c' }]);
    const answers = run.messages.filter((message) => message.role === 'tool').map((message) => messageText(message));
    expect(answers[0]).toContain('/city must be one of "Paris", "Rome"');
  });
});
