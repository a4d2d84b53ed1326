import { eventsOfType, scriptedInvalidToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { InvalidInputError } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ResponseFormat } from '../format/response-format.js';
import { invokeStructured } from './invoke-structured.js';
import { ask, Person, profiles, setup } from './scripted-setup.test-helpers.js';

const ada = { name: 'Ada', age: 36 };
const person = ResponseFormat.auto({ name: 'person', schema: Person });
const Ticket = Type.Object(
  { title: Type.String(), priority: Type.Union([Type.Literal('low'), Type.Literal('high')]), count: Type.Integer() },
  { additionalProperties: false },
);
const ticket = ResponseFormat.auto({ name: 'ticket', schema: Ticket });

/** Messy answers each strategy's first attempt gets; the second scripted answer is valid. */
const messy = [
  ['unquoted keys and a single-quoted string', "{name: 'Ada', age: 36}", ada],
  ['an unquoted value with a space', '{name: Ada Lovelace, age: 36}', { name: 'Ada Lovelace', age: 36 }],
  ['a backtick string', '{"name": `Ada`, "age": 36}', ada],
  ['an answer cut at the end, with unquoted keys', 'Sure:\n```json\n{age: 36, name: "Ada', ada],
  ['two candidates, the first invalid', 'Not {"name": "Bob"} but {"name": "Ada", "age": 36}', ada],
] as const;

function structuredOutputEvents(events: readonly unknown[]) {
  return eventsOfType(events as never, 'custom')
    .map((event) => (event as { payload: Record<string, unknown> }).payload)
    .filter((payload) => payload.kind === 'structured_output');
}

describe('schema-guided recovery before a retry', () => {
  for (const [strategy, profile] of [
    ['provider', profiles.native],
    ['prompted', profiles.textOnly],
  ] as const) {
    it.each(messy)(`${strategy}: recovers %s with one model call instead of two`, async (_label, content, expected) => {
      const { model, harness } = setup([{ content }, { content: JSON.stringify(ada) }], profile);
      const result = await invokeStructured(harness, {}, ask, person);
      expect(result.parsed).toEqual(expected);
      expect(model.requests).toHaveLength(1);
      expect(result.run.modelCalls).toBe(1);
      expect(result.validation).toMatchObject({ strategy, repair: 'schema', attempts: 1, failures: [] });
      expect(result.validation.repairs.length).toBeGreaterThan(0);
      expect(eventsOfType(result.run.events, 'output_retry')).toEqual([]);
      const [event] = structuredOutputEvents(result.run.events);
      expect(event).toMatchObject({ repair: 'schema', repairs: result.validation.repairs });

      // The same answers without the recovery: the model is asked again.
      const again = setup([{ content }, { content: JSON.stringify(ada) }], profile);
      const retried = await invokeStructured(again.harness, {}, ask, person, { schemaRecovery: false });
      expect(again.model.requests).toHaveLength(2);
      expect(retried.validation.attempts).toBe(2);
    });
  }

  it('saves one model call per recovered answer across a batch of runs', async () => {
    let calls = 0;
    let callsWithout = 0;
    for (const [, content] of messy) {
      const recovered = setup([{ content }, { content: JSON.stringify(ada) }], profiles.textOnly);
      await invokeStructured(recovered.harness, {}, ask, person);
      calls += recovered.model.requests.length;
      const plain = setup([{ content }, { content: JSON.stringify(ada) }], profiles.textOnly);
      await invokeStructured(plain.harness, {}, ask, person, { schemaRecovery: false });
      callsWithout += plain.model.requests.length;
    }
    expect(callsWithout - calls).toBe(messy.length);
  });

  it('matches enum case and drops prose keys only because the schema forbids them', async () => {
    const content = '{"title": "Printer on fire", "priority": "HIGH", "count": 2, "reasoning": "It is urgent."}';
    const { model, harness } = setup([{ content }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, ticket);
    expect(result.parsed).toEqual({ title: 'Printer on fire', priority: 'high', count: 2 });
    expect(model.requests).toHaveLength(1);
    expect(result.validation.repairs).toEqual([
      'matched_enum_case at /priority',
      'dropped_undeclared_key at /reasoning',
    ]);
  });

  // Cross-type coercion is off by default (Vercel AI's Output.object and instructor refuse a value
  // of the wrong type and ask again): a numeric string for an integer costs one retry.
  it('leaves a value of the wrong type to the retry budget by default', async () => {
    const wrongType = '{"name": "Ada", "age": "36"}';
    const { model, harness } = setup([{ content: wrongType }, { content: JSON.stringify(ada) }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.parsed).toEqual(ada);
    expect(model.requests).toHaveLength(2);
    expect(result.validation).toMatchObject({ attempts: 2, repair: 'strict', repairs: [] });
    const [retry] = eventsOfType(result.run.events, 'output_retry');
    expect(retry).toMatchObject({ errorKind: 'validation', attempt: 1 });
    expect((retry as { error: string }).error).toMatch(/age/);

    const exhausted = setup([{ content: wrongType }], profiles.native);
    await expect(invokeStructured(exhausted.harness, {}, ask, person, { maxRetries: 0 })).rejects.toThrow(/age/);
    expect(exhausted.model.requests).toHaveLength(1);
  });

  it("converts across types with coerce: 'lenient', listing each conversion", async () => {
    const content = '{"title": "Printer on fire", "priority": "HIGH", "count": "2", "reasoning": "It is urgent."}';
    const { model, harness } = setup([{ content }], profiles.native);
    const result = await invokeStructured(harness, {}, ask, ticket, { coerce: 'lenient' });
    expect(result.parsed).toEqual({ title: 'Printer on fire', priority: 'high', count: 2 });
    expect(model.requests).toHaveLength(1);
    expect(result.validation.repairs).toEqual([
      'matched_enum_case at /priority',
      'coerced_to_number at /count',
      'dropped_undeclared_key at /reasoning',
    ]);
  });

  it('leaves an answer that still fails validation to the retry policy', async () => {
    const { model, harness } = setup(
      [{ content: "{'name': 'Ada', 'age': 'thirty-six'}" }, { content: JSON.stringify(ada) }],
      profiles.native,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(model.requests).toHaveLength(2);
    expect(result.validation).toMatchObject({ attempts: 2, repair: 'strict', repairs: [] });
    expect(eventsOfType(result.run.events, 'output_retry')).toHaveLength(1);
  });

  it('refuses an unknown coerce value with InvalidInputError before any model call', async () => {
    const { model, harness } = setup([{ content: JSON.stringify(ada) }], profiles.native);
    await expect(invokeStructured(harness, {}, ask, person, { coerce: 'loose' as never })).rejects.toThrow(
      InvalidInputError,
    );
    expect(model.requests).toHaveLength(0);
  });

  it('keeps what a cut answer wrote instead of the ladder closing it into less, and lists the close', async () => {
    const Card = Type.Object({ name: Type.String(), bio: Type.Optional(Type.String()) });
    const card = ResponseFormat.auto({ name: 'card', schema: Card });
    for (const [content, expected] of [
      ['{name: Ada', { name: 'Ada' }],
      ['{"name": "Ada", "bio": Born in London and', { name: 'Ada', bio: 'Born in London and' }],
    ] as const) {
      const { model, harness } = setup([{ content }, { content: '{"name": "RETRY"}' }], profiles.textOnly);
      const result = await invokeStructured(harness, {}, ask, card);
      expect(result.parsed).toEqual(expected);
      expect(model.requests).toHaveLength(1);
      expect(result.validation.repair).toBe('schema');
      expect(result.validation.repairs).toContain('closed_truncated');
    }
    // When only the ladder's close validates (the reader refuses `tw` for an integer), it is the
    // last resort and says so.
    const Pair = Type.Object({ a: Type.Integer(), b: Type.Optional(Type.Integer()) });
    const pair = ResponseFormat.auto({ name: 'pair', schema: Pair });
    const { harness } = setup([{ content: '{"a": 1, "b": tw' }, { content: '{"a": 1, "b": 2}' }], profiles.textOnly);
    const result = await invokeStructured(harness, {}, ask, pair);
    expect(result.parsed).toEqual({ a: 1 });
    expect(result.validation).toMatchObject({ repair: 'schema', repairs: ['closed_truncated'] });
  });

  it('refuses a number that overflows to Infinity as a validation failure, so the model is asked again', async () => {
    const { model, harness } = setup(
      [{ content: '{"name": "Ada", "age": 1e999}' }, { content: JSON.stringify(ada) }],
      profiles.textOnly,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(model.requests).toHaveLength(2);
    expect(result.parsed).toEqual(ada);
    expect(result.validation.failures[0]).toMatchObject({
      kind: 'validation',
      issues: [{ path: '/age', keyword: 'type', message: 'must be a finite number' }],
    });
  });

  it('never recovers the arguments of the tool strategy', async () => {
    const { model, harness } = setup(
      [
        { toolCalls: [scriptedInvalidToolCall('person', "{'name': 'Ada', 'age': 'thirty-six'}", 'not JSON')] },
        { toolCalls: [scriptedToolCall('person', ada)] },
      ],
      profiles.toolsOnly,
    );
    const result = await invokeStructured(harness, {}, ask, person);
    expect(result.validation.strategy).toBe('tool');
    expect(model.requests).toHaveLength(2);
    expect(result.validation.repair).not.toBe('schema');
  });
});
