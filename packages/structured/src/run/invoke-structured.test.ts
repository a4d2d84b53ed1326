import { LimitExceededError } from '@tiny/harness';
import {
  eventsOfType,
  scriptedInvalidToolCall,
  scriptedRefusedToolCall,
  scriptedToolCall,
  toolEventViolations,
} from '@tiny/harness/testkit';
import { messageText } from '@tiny/llm';
import { InvalidInputError, ModelRetry } from '@tiny/tools';
import { Type } from 'typebox';
import { beforeEach, describe, expect, it } from 'vitest';
import { OutputLimitError } from '../errors/output-limit-error.js';
import { OutputRefusedError } from '../errors/output-refused-error.js';
import { SchemaNameCollisionError } from '../errors/schema-name-collision-error.js';
import { StructuredOutputError } from '../errors/structured-output-error.js';
import { ResponseFormat } from '../format/response-format.js';
import { StructuredOutputErrorPolicy } from '../policy/error-policy.js';
import { invokeStructured } from './invoke-structured.js';
import { ask, Person, profiles, setup, weatherCalls } from './scripted-setup.test-helpers.js';

const ada = { name: 'Ada', age: 36 };
const person = ResponseFormat.auto({ name: 'person', schema: Person });

beforeEach(() => {
  weatherCalls.length = 0;
});

describe('invokeStructured: provider strategy', () => {
  it('sends the native response format and returns the parsed value with its raw message', async () => {
    const { model, harness } = setup([{ content: JSON.stringify(ada) }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.raw).toEqual({ role: 'assistant', content: JSON.stringify(ada) });
    expect(result.validation).toMatchObject({ strategy: 'provider', repair: 'strict', attempts: 1, strict: false });
    expect(model.requests[0]?.responseFormat).toEqual({ type: 'json_schema', name: 'person', schema: Person });
    expect(model.requests[0]?.tools).toBeUndefined();
  });

  it('repairs fenced JSON and records the rung', async () => {
    const { harness } = setup([{ content: '```json\n{"name":"Ada","age":36}\n```' }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.validation.repair).toBe('code_fence');
  });

  it('retries invalid output with the validation error as a user turn, counting both model calls', async () => {
    const { model, harness } = setup(
      [{ content: '{"name":"Ada","age":"thirty-six"}' }, { content: JSON.stringify(ada) }],
      profiles.native,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.run.modelCalls).toBe(2);
    expect(result.validation.attempts).toBe(2);
    expect(result.validation.failures[0]?.kind).toBe('validation');
    const retry = model.requests[1]?.messages.at(-1);
    expect(retry?.role).toBe('user');
    expect(messageText(retry as never)).toContain('/age must be integer');
    expect(messageText(retry as never)).toContain('Fix the errors and try again.');
    expect(eventsOfType(result.run.events, 'output_retry')).toEqual([
      expect.objectContaining({ schemaName: 'person', attempt: 1, errorKind: 'validation' }),
    ]);
  });

  it('throws StructuredOutputError carrying every attempt when retries are exhausted', async () => {
    const { harness } = setup([{ content: 'not json at all' }, { content: '{"name":"Ada"}' }], profiles.native);
    const error = await invokeStructured(harness, {}, ask, person).catch((caught: unknown) => caught);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    const attempts = (error as StructuredOutputError).attempts;
    expect(attempts.map((attempt) => [attempt.attempt, attempt.kind])).toEqual([
      [1, 'parse'],
      [2, 'validation'],
    ]);
    expect(attempts[1]?.raw.content).toBe('{"name":"Ada"}');
    expect((error as StructuredOutputError).run?.modelCalls).toBe(2);
  });

  it('counts retries against maxModelCalls', async () => {
    const { harness } = setup([{ content: '{}' }, { content: JSON.stringify(ada) }], profiles.native);
    await expect(invokeStructured(harness, {}, ask, person, { limits: { maxModelCalls: 1 } })).rejects.toSatisfy(
      (error: unknown) => LimitExceededError.isInstance(error),
    );
  });

  it('round-trips optional fields under strict mode', async () => {
    const strict = ResponseFormat.provider({ name: 'person', schema: Person, strict: true });
    const { model, harness } = setup([{ content: '{"name":"Ada","age":36,"nickname":null}' }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, strict);
    expect(result.parsed).toEqual(ada);
    expect(result.validation.strict).toBe(true);
    const format = model.requests[0]?.responseFormat;
    expect(format).toMatchObject({ type: 'json_schema', strict: true });
    const schema = (format as { schema: Record<string, unknown> }).schema;
    expect(schema.required).toEqual(['name', 'age', 'nickname']);
    expect(schema.additionalProperties).toBe(false);
    expect((schema.properties as Record<string, { type: unknown }>).nickname?.type).toEqual(['string', 'null']);
  });

  it('turns on strict decoding for a profile with the openai_strict transform', async () => {
    const { harness } = setup([{ content: '{"name":"Ada","age":36,"nickname":null}' }], {
      ...profiles.native,
      schemaTransform: { type: 'openai_strict' },
    });
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.validation.strict).toBe(true);
  });

  it('wraps a non-object root as { value } on the wire and unwraps it', async () => {
    const list = ResponseFormat.provider({ name: 'names', schema: Type.Array(Type.String()) });
    const { model, harness } = setup([{ content: '{"value":["a","b"]}' }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, list);
    expect(result.parsed).toEqual(['a', 'b']);
    const format = model.requests[0]?.responseFormat as { schema: Record<string, unknown> } | undefined;
    const schema = format?.schema ?? {};
    expect(schema.required).toEqual(['value']);
  });

  it('raises OutputLimitError for empty output cut off at the token limit, without retrying', async () => {
    const { model, harness } = setup([{ content: '', finishReason: 'length' }, { content: '{}' }], profiles.native);
    const error = await invokeStructured(harness, {}, ask, person).catch((caught: unknown) => caught);
    expect(OutputLimitError.isInstance(error)).toBe(true);
    expect((error as OutputLimitError).message).toMatch(/output limit/);
    expect(model.calls).toBe(1);
  });

  it('raises OutputRefusedError for a refusal, not a parse failure, without retrying', async () => {
    for (const [format, profile] of [
      [person, profiles.native],
      [ResponseFormat.tool({ name: 'person', schema: Person }), profiles.toolsOnly],
    ] as const) {
      const refusal = "I'm sorry, I can't help with that.";
      const { model, harness } = setup(
        [{ content: '', refusal, finishReason: 'content_filter' }, { content: JSON.stringify(ada) }],
        profile,
      );
      const error = await invokeStructured(harness, {}, ask, format).catch((caught: unknown) => caught);
      expect(OutputRefusedError.isInstance(error)).toBe(true);
      expect(StructuredOutputError.isInstance(error)).toBe(false);
      expect((error as OutputRefusedError).refusal).toBe(refusal);
      expect((error as OutputRefusedError).attempts.map((attempt) => attempt.kind)).toEqual(['refused']);
      expect(model.calls).toBe(1);
    }
  });

  it('treats other empty output as missing and retries', async () => {
    const { harness } = setup([{ content: '' }, { content: JSON.stringify(ada) }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.validation.failures[0]?.kind).toBe('missing');
  });
});

describe('invokeStructured: error policy and validator', () => {
  it('returnError fails on the first invalid answer', async () => {
    const { model, harness } = setup([{ content: '{}' }, { content: JSON.stringify(ada) }], profiles.native);
    const error = await invokeStructured(harness, {}, ask, person, {
      errorPolicy: StructuredOutputErrorPolicy.returnError(),
    }).catch((caught: unknown) => caught);
    expect((error as StructuredOutputError).attempts).toHaveLength(1);
    expect(model.calls).toBe(1);
  });

  it('retryWithMessage and retryWithFormatter shape the retry turn', async () => {
    const fixed = setup([{ content: '{}' }, { content: JSON.stringify(ada) }], profiles.native);
    await invokeStructured(fixed.harness, {}, ask, person, {
      errorPolicy: StructuredOutputErrorPolicy.retryWithMessage('Wrong ({error}). Again.'),
    });
    expect(fixed.model.requests[1]?.messages.at(-1)?.content).toMatch(/^Wrong \(.*is required.*\)\. Again\.$/);
    const formatted = setup([{ content: '{}' }, { content: JSON.stringify(ada) }], profiles.native);
    await invokeStructured(formatted.harness, {}, ask, person, {
      errorPolicy: StructuredOutputErrorPolicy.retryWithFormatter((attempt) => `#${attempt.attempt} ${attempt.kind}`),
    });
    expect(formatted.model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: '#1 validation' });
  });

  it('maxRetries bounds the attempts', async () => {
    const { harness } = setup([{ content: '{}' }], profiles.native);
    const many = setup(
      [{ content: '{}' }, { content: '{}' }, { content: '{}' }, { content: JSON.stringify(ada) }],
      profiles.native,
    );
    const result = await invokeStructured(many.harness, {}, ask, person, { maxRetries: 3 });
    expect(result.validation.attempts).toBe(4);
    await expect(invokeStructured(harness, {}, ask, person, { maxRetries: 0 })).rejects.toThrow(/1 attempt/);
  });

  it('refuses a maxRetries that is not a count before calling the model', async () => {
    for (const maxRetries of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
      const { model, harness } = setup([{ content: JSON.stringify(ada) }], profiles.native);
      const run = invokeStructured(harness, {}, ask, person, { maxRetries });
      await expect(run).rejects.toSatisfy(InvalidInputError.isInstance);
      await expect(run).rejects.toThrow(/`maxRetries`/);
      expect(model.calls).toBe(0);
    }
  });

  it('an output validator may ask for another attempt with ModelRetry', async () => {
    const { model, harness } = setup(
      [{ content: '{"name":"ada","age":36}' }, { content: JSON.stringify(ada) }],
      profiles.native,
    );
    const result = await invokeStructured(harness, {}, ask, person, {
      validate: (value) => {
        if (value.name !== value.name.replace(/^./, (first) => first.toUpperCase())) {
          throw new ModelRetry('Capitalize the name.');
        }
      },
    });
    expect(result.parsed.name).toBe('Ada');
    expect(result.validation.failures[0]).toMatchObject({ kind: 'validator', error: 'Capitalize the name.' });
    expect(eventsOfType(result.run.events, 'output_retry')[0]?.errorKind).toBe('validator');
    expect(model.calls).toBe(2);
  });

  it('other validator errors fail at once, with the error as cause', async () => {
    const { model, harness } = setup(
      [{ content: JSON.stringify(ada) }, { content: JSON.stringify(ada) }],
      profiles.native,
    );
    const boom = new Error('database down');
    const error = await invokeStructured(harness, {}, ask, person, {
      validate: () => {
        throw boom;
      },
    }).catch((caught: unknown) => caught);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect((error as Error).cause).toBe(boom);
    expect(model.calls).toBe(1);
  });

  it('a validator may replace the value', async () => {
    const { harness } = setup([{ content: JSON.stringify(ada) }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, person, {
      validate: (value) => ({ ...value, name: value.name.toUpperCase() }),
    });
    expect(result.parsed.name).toBe('ADA');
  });

  it('includeRaw: false leaves raw out of the result but keeps it in the events', async () => {
    const { harness } = setup([{ content: JSON.stringify(ada) }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, person, { includeRaw: false });
    expect(result.raw).toBeUndefined();
    const custom = eventsOfType(result.run.events, 'custom')[0];
    expect(custom?.payload).toMatchObject({
      kind: 'structured_output',
      schemaName: 'person',
      raw: { role: 'assistant', content: JSON.stringify(ada) },
    });
  });
});

describe('invokeStructured: tool strategy', () => {
  it('forces the output tool when no real tools exist, and never executes it', async () => {
    const { model, harness } = setup([{ toolCalls: [scriptedToolCall('person', ada)] }], profiles.toolsOnly);
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.validation).toMatchObject({ strategy: 'tool', repair: 'strict', attempts: 1 });
    expect(model.requests[0]?.toolChoice).toEqual({ type: 'tool', toolName: 'person' });
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['person']);
    expect(model.requests[0]?.tools?.[0]?.description).toBe('Return the result as `person`.');
    expect(result.run.executedTools).toEqual([]);
    expect(eventsOfType(result.run.events, 'unknown_tool_call')).toEqual([]);
    expect(result.run.modelCalls).toBe(1);
  });

  it('runs real tools in the same run, then returns the output (tool not forced)', async () => {
    const { model, harness } = setup(
      [
        { toolCalls: [scriptedToolCall('weather', { city: 'Oslo' })] },
        { toolCalls: [scriptedToolCall('person', ada)] },
      ],
      profiles.toolsOnly,
      true,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(weatherCalls).toEqual(['Oslo']);
    expect(result.run.executedTools).toEqual(['weather']);
    expect(model.requests[0]?.toolChoice).toBeUndefined();
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['weather', 'person']);
    expect(toolEventViolations(result.run.events)).toEqual([]);
  });

  it('retries a missing output call with a user turn', async () => {
    const { model, harness } = setup(
      [{ content: 'Ada is a mathematician.' }, { toolCalls: [scriptedToolCall('person', ada)] }],
      profiles.toolsOnly,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.validation.failures[0]?.kind).toBe('missing');
    expect(model.requests[1]?.messages.at(-1)?.role).toBe('user');
    expect(messageText(model.requests[1]?.messages.at(-1) as never)).toContain('No call to `person`');
  });

  it('retries invalid arguments: the output call gets an error result, then a user turn', async () => {
    const { model, harness } = setup(
      [{ toolCalls: [scriptedToolCall('person', { name: 'Ada' })] }, { toolCalls: [scriptedToolCall('person', ada)] }],
      profiles.toolsOnly,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    const second = model.requests[1]?.messages ?? [];
    expect(second.at(-2)).toMatchObject({ role: 'tool', isError: true });
    expect(second.at(-1)?.role).toBe('user');
    expect(result.run.modelCalls).toBe(2);
    expect(eventsOfType(result.run.events, 'output_retry')[0]).toMatchObject({ errorKind: 'validation', attempt: 1 });
  });

  it('repairs undecodable arguments through the lenient ladder', async () => {
    const { harness } = setup(
      [{ toolCalls: [scriptedInvalidToolCall('person', '```json\n{"name":"Ada","age":36}\n```', 'not JSON')] }],
      profiles.toolsOnly,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.validation.repair).toBe('code_fence');
  });

  it('never reads an output call the adapter refused, however well its text parses, and asks again', async () => {
    const { harness } = setup(
      [
        { toolCalls: [scriptedRefusedToolCall('person', '{"name":"Eve","age":99}', 'two calls under one id')] },
        { toolCalls: [scriptedToolCall('person', ada)] },
      ],
      profiles.toolsOnly,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.validation.failures[0]?.kind).toBe('parse');
    expect(result.validation.failures[0]?.error).toContain('two calls under one id');
  });

  it('takes the first of several output calls, or fails them with multipleOutputs: error', async () => {
    const calls = [scriptedToolCall('person', ada), scriptedToolCall('person', { name: 'Bob', age: 1 })];
    const first = setup([{ toolCalls: calls }], profiles.toolsOnly);
    expect((await invokeStructured(first.harness, {}, ask, person)).parsed).toEqual(ada);
    const strict = setup([{ toolCalls: calls }, { toolCalls: [scriptedToolCall('person', ada)] }], profiles.toolsOnly);
    const result = await invokeStructured(strict.harness, {}, ask, person, { multipleOutputs: 'error' });
    expect(result.validation.failures[0]?.kind).toBe('multiple');
    expect(eventsOfType(result.run.events, 'output_retry')[0]?.errorKind).toBe('multiple');
  });

  it('rejects a schema name that collides with a registered tool before any model call', async () => {
    const { model, harness } = setup([{ content: '{}' }], profiles.toolsOnly, true);
    const clash = ResponseFormat.tool({ name: 'weather', schema: Person });
    const error = await invokeStructured(harness, {}, ask, clash).catch((caught: unknown) => caught);
    expect(SchemaNameCollisionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/collides/);
    expect(model.calls).toBe(0);
  });

  it('picks the right union variant and records it', async () => {
    const Answer = Type.Union([
      Type.Object({ city: Type.String(), celsius: Type.Number() }, { title: 'forecast' }),
      Type.Object({ reason: Type.String() }, { title: 'refusal' }),
    ]);
    const format = ResponseFormat.tool({ name: 'answer', schema: Answer });
    const { model, harness } = setup(
      [{ toolCalls: [scriptedToolCall('answer_refusal', { reason: 'no data' })] }],
      profiles.toolsOnly,
    );
    const result = await invokeStructured(harness, {}, ask, format);
    expect(result.parsed).toEqual({ reason: 'no data' });
    expect(result.validation.variant).toBe('refusal');
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['answer_forecast', 'answer_refusal']);
    expect(model.requests[0]?.toolChoice).toEqual({ type: 'required' });
  });

  it('records the variant a provider answer matched', async () => {
    const Answer = Type.Union([
      Type.Object({ city: Type.String() }, { title: 'forecast' }),
      Type.Object({ reason: Type.String() }),
    ]);
    const { harness } = setup([{ content: '{"reason":"none"}' }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, ResponseFormat.auto({ name: 'answer', schema: Answer }));
    expect(result.validation.variant).toBe('option_2');
  });
});

describe('invokeStructured: end strategy (output tool and real tools in one turn)', () => {
  const together = () => [
    { toolCalls: [scriptedToolCall('weather', { city: 'Oslo' }), scriptedToolCall('person', ada)] },
    { toolCalls: [scriptedToolCall('person', { name: 'Later', age: 1 })] },
  ];

  it('graceful (default): runs the tools, then ends with the output and no extra model call', async () => {
    const { model, harness } = setup(together(), profiles.toolsOnly, true);
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(weatherCalls).toEqual(['Oslo']);
    expect(model.calls).toBe(1);
    expect(result.run.text).toBe(JSON.stringify(ada));
    expect(toolEventViolations(result.run.events)).toEqual([]);
  });

  it('early: ends at once; the real call is closed unexecuted', async () => {
    const { model, harness } = setup(together(), profiles.toolsOnly, true);
    const result = await invokeStructured(harness, {}, ask, person, { endStrategy: 'early' });
    expect(result.parsed).toEqual(ada);
    expect(weatherCalls).toEqual([]);
    expect(model.calls).toBe(1);
    const closed = result.run.messages.filter((message) => message.role === 'tool');
    expect(closed.map((message) => messageText(message))).toContain('run stopped before this tool call was executed');
  });

  it('exhaustive: ignores the output call, runs the tools and takes a later lone output call', async () => {
    const { model, harness } = setup(together(), profiles.toolsOnly, true);
    const result = await invokeStructured(harness, {}, ask, person, { endStrategy: 'exhaustive' });
    expect(result.parsed).toEqual({ name: 'Later', age: 1 });
    expect(weatherCalls).toEqual(['Oslo']);
    expect(model.calls).toBe(2);
  });
});

describe('invokeStructured: prompted strategy and auto selection', () => {
  it('puts the schema in a system message for a model with neither native output nor tools', async () => {
    const { model, harness } = setup([{ content: `Here you go: ${JSON.stringify(ada)}` }], profiles.textOnly);
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(result.validation).toMatchObject({ strategy: 'prompted', repair: 'slice' });
    const system = model.requests[0]?.messages[0];
    expect(system?.role).toBe('system');
    expect(messageText(system as never)).toContain('JSON Schema for `person`:');
    expect(model.requests[0]?.responseFormat).toBeUndefined();
  });

  it('uses a custom template and JSON mode on json_object profiles', async () => {
    const format = ResponseFormat.prompted({ name: 'person', schema: Person }, 'Reply in JSON.');
    const { model, harness } = setup([{ content: JSON.stringify(ada) }], { structuredOutput: 'json_object' });
    await invokeStructured(harness, {}, ask, format);
    expect(messageText(model.requests[0]?.messages[0] as never)).toMatch(
      /^Reply in JSON\.\n\nJSON Schema for `person`:/,
    );
    expect(model.requests[0]?.responseFormat).toEqual({ type: 'json' });
  });

  it('picks the tool strategy for a tool-calling model without native output', async () => {
    const { harness } = setup([{ toolCalls: [scriptedToolCall('person', ada)] }], profiles.toolsOnly);
    expect((await invokeStructured(harness, {}, ask, person)).validation.strategy).toBe('tool');
  });

  it('jsonSchema always uses the provider strategy', async () => {
    const { model, harness } = setup([{ content: '{"n":1}' }], profiles.toolsOnly);
    const format = ResponseFormat.jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'number' } } });
    const result = await invokeStructured(harness, {}, ask, format);
    expect(result.parsed.n).toBe(1);
    expect(model.requests[0]?.responseFormat).toMatchObject({ type: 'json_schema', name: 'response' });
  });
});
