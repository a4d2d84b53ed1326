// Workload 2: argument validation. Each system validates the same valid and invalid arguments by
// its own recommended path; invalid input must yield its error messages. Also: the cost of
// registering a tool (ours) against compiling its schema with ajv.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { ToolRegistry } from '@tiny/harness';
import { createValidator, defineTool } from '@tiny/tools';
import { zodSchema } from 'ai';
import { Ajv } from 'ajv';
import { nowUs, sampleInRotation } from '../stats.mjs';
import {
  invalidTickets,
  ticketJsonSchema,
  ticketTypeBoxSchema,
  ticketZodSchema,
  validTickets,
} from './ticket-schema.mjs';

const VALUES = 1024;

/** The systems, each a pair of functions: valid → truthy; invalid → its messages (a string). */
function validationSystems() {
  const ours = createValidator(ticketJsonSchema());
  const ajv = new Ajv().compile(ticketJsonSchema());
  const ajvAll = new Ajv({ allErrors: true }).compile(ticketJsonSchema());
  const zod = ticketZodSchema();
  const aiSdk = zodSchema(ticketZodSchema());
  const typeboxSchema = ticketTypeBoxSchema();
  const typebox = TypeCompiler.Compile(typeboxSchema);
  const messages = (list) => list.map((item) => item.message).join('; ');
  return [
    {
      id: 'tiny',
      label: 'tiny createValidator().validate (ajv, allErrors)',
      ours: true,
      valid: (value) => ours.validate(value).ok,
      invalid: (value) => messages(ours.validate(value).issues),
    },
    {
      id: 'ajv',
      label: 'ajv 8 compile() (defaults: first error)',
      valid: (value) => ajv(value),
      invalid: (value) => (ajv(value) ? '' : messages(ajv.errors)),
    },
    {
      id: 'ajv-all-errors',
      label: 'ajv 8 compile() { allErrors: true }',
      valid: (value) => ajvAll(value),
      invalid: (value) => (ajvAll(value) ? '' : messages(ajvAll.errors)),
    },
    {
      id: 'zod',
      label: 'zod 4 safeParse',
      valid: (value) => zod.safeParse(value).success,
      invalid: (value) => messages(zod.safeParse(value).error.issues),
    },
    {
      id: 'ai-sdk-zod',
      label: 'AI SDK zodSchema().validate (async)',
      async: true,
      valid: async (value) => (await aiSdk.validate(value)).success,
      invalid: async (value) => messages((await aiSdk.validate(value)).error.issues),
    },
    {
      id: 'typebox-compiled',
      label: 'TypeBox 0.34 TypeCompiler.Compile().Check / Errors',
      valid: (value) => typebox.Check(value),
      invalid: (value) => (typebox.Check(value) ? '' : messages([...typebox.Errors(value)])),
    },
    {
      id: 'typebox-value',
      label: 'TypeBox 0.34 Value.Check / Value.Errors',
      valid: (value) => Value.Check(typeboxSchema, value),
      invalid: (value) => (Value.Check(typeboxSchema, value) ? '' : messages([...Value.Errors(typeboxSchema, value)])),
    },
  ];
}

/** Registering one tool with a fresh schema object vs compiling that schema with ajv. */
function registrationSystems() {
  const execute = () => 'ok';
  const shared = new Ajv();
  return [
    {
      id: 'tiny-register',
      label: 'tiny new ToolRegistry().register(defineTool(...))',
      ours: true,
      run: () =>
        new ToolRegistry().register(
          defineTool({
            name: 'create_ticket',
            description: 'Create a ticket.',
            parameters: ticketJsonSchema(),
            execute,
          }),
        ),
    },
    { id: 'ajv-new-compile', label: 'new Ajv().compile(schema)', run: () => new Ajv().compile(ticketJsonSchema()) },
    {
      id: 'ajv-shared-compile',
      label: 'shared ajv.compile(fresh schema)',
      run: () => shared.compile(ticketJsonSchema()),
    },
    {
      id: 'typebox-compile',
      label: 'TypeBox TypeCompiler.Compile(fresh schema)',
      run: () => TypeCompiler.Compile(ticketTypeBoxSchema()),
    },
    { id: 'zod-build', label: 'zod schema construction', run: () => ticketZodSchema() },
  ];
}

/** A sampler of operations per second over a batch of `batch` calls (awaited when `async`). */
function rateSampler(operation, batch, async) {
  if (async) {
    return async () => {
      const started = nowUs();
      for (let j = 0; j < batch; j++) await operation(j);
      return batch / ((nowUs() - started) / 1e6);
    };
  }
  return () => {
    const started = nowUs();
    for (let j = 0; j < batch; j++) operation(j);
    return batch / ((nowUs() - started) / 1e6);
  };
}

/** A sampler of microseconds per call over a batch of `batch` calls. */
function durationSampler(operation, batch) {
  return () => {
    const started = nowUs();
    for (let j = 0; j < batch; j++) operation();
    return (nowUs() - started) / batch;
  };
}

/** Runs the validation workload; `smoke` shrinks every count. Systems are sampled in rotation. */
export async function runValidation({ smoke }) {
  const valid = validTickets(VALUES);
  const invalid = invalidTickets(VALUES);
  const settings = smoke
    ? { batch: 256, warmups: 1, rounds: 3 }
    : { batch: 10000, warmups: 3, rounds: 21, budgetMs: 8000 };
  const systems = validationSystems();
  const rows = [];
  for (const [kind, values] of [
    ['valid', valid],
    ['invalid', invalid],
  ]) {
    const samplers = [];
    for (const system of systems) {
      const check = system[kind];
      // Sanity: valid input passes, invalid input fails with at least one message.
      const probe = await check(values[0]);
      if (kind === 'valid' ? probe !== true : typeof probe !== 'string' || probe.length === 0) {
        throw new Error(`${system.id} ${kind}: unexpected ${probe}`);
      }
      const sampler = rateSampler((j) => check(values[j & (VALUES - 1)]), settings.batch, system.async === true);
      for (let i = 0; i < settings.warmups; i++) await sampler();
      samplers.push(sampler);
    }
    globalThis.gc?.();
    const stats = await sampleInRotation(samplers, settings);
    systems.forEach((system, index) => {
      rows.push({ id: system.id, label: system.label, ours: system.ours === true, kind, opsPerSecond: stats[index] });
    });
  }
  const registrations = registrationSystems();
  const registerSettings = smoke ? { rounds: 3, batch: 3 } : { rounds: 15, batch: 10, budgetMs: 8000 };
  const samplers = registrations.map((system) => {
    for (let i = 0; i < 10; i++) system.run();
    return durationSampler(system.run, registerSettings.batch);
  });
  globalThis.gc?.();
  const stats = await sampleInRotation(samplers, registerSettings);
  const registration = registrations.map((system, index) => ({
    id: system.id,
    label: system.label,
    ours: system.ours === true,
    microseconds: stats[index],
  }));
  return { values: VALUES, rows, registration };
}
