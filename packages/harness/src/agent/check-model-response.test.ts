import { type LanguageModelV1Response, ModelCallError } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// The model's response is read once, field by field, checked, and the run records what was read.

const open = { type: 'object', properties: {}, additionalProperties: true } as const;
const echo = defineTool({ name: 'echo', description: 'echo', parameters: open, execute: () => 'ok' });

/** A property whose first read answers `first` and every later read `later`. */
function flip(first: unknown, later: unknown): PropertyDescriptor {
  let reads = 0;
  return {
    enumerable: true,
    get() {
      reads += 1;
      return reads === 1 ? first : later;
    },
  };
}

/** A model whose first answer is `first` and whose later answers are a plain `done`. */
function modelAnswering(first: () => unknown): ScriptedModel {
  const model = new ScriptedModel({ steps: [{ content: 'unused' }, { content: 'done' }, { content: 'done' }] });
  const generate = model.doGenerate.bind(model);
  let calls = 0;
  model.doGenerate = async (request) => {
    const scripted = await generate(request);
    calls += 1;
    return calls === 1 ? (first() as LanguageModelV1Response) : scripted;
  };
  return model;
}

const base = { content: 'x', toolCalls: [], warnings: [], usage: {}, finishReason: 'stop' };

function withGetter(field: string, first: unknown, later: unknown): unknown {
  const { [field]: _dropped, ...rest } = base as Record<string, unknown>;
  return Object.defineProperty(rest, field, flip(first, later));
}

describe('a response field that is a getter', () => {
  const cases: [string, unknown, unknown][] = [
    ['content', 'ok', { live: true }],
    ['refusal', 'no', { nested: true }],
    ['usage', { inputTokens: 3 }, { inputTokens: '12' }],
    ['finishReason', 'stop', { reason: 'object' }],
  ];
  for (const [field, first, later] of cases) {
    it(`${field}: the run records the value the check read`, async () => {
      const run = await new AgentHarness({ model: modelAnswering(() => withGetter(field, first, later)) }).invoke('go');
      const completed = run.events.find((event) => event.type === 'model_completed') as Record<string, unknown>;
      if (field === 'content') expect(run.text).toBe('ok');
      if (field === 'refusal') expect(completed.refusal).toBe('no');
      if (field === 'usage') expect(run.usage.inputTokens).toBe(3);
      if (field === 'finishReason') expect(completed.finishReason).toBe('stop');
      expect(JSON.stringify(run.events)).not.toMatch(/live|nested|"12"|object/);
    });
  }

  it('a getter that throws is refused with a protocol_violation ModelCallError', async () => {
    const response = Object.defineProperty({ ...base }, 'content', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const error = await new AgentHarness({ model: modelAnswering(() => response) })
      .invoke('go')
      .catch((thrown: unknown) => thrown);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'protocol_violation' });
  });
});

describe('a tool-call entry of the wrong shape', () => {
  const cases: [string, unknown, string][] = [
    ['a null entry', null, '`toolCalls[0]` must be an object, got null'],
    ['a number name', { id: 'a', name: 5, arguments: {} }, '`toolCalls[0].name` must be a string'],
    ['an object id', { id: { x: 1 }, name: 'echo', arguments: {} }, '`toolCalls[0].id` must be a string'],
    [
      'an object rawArguments',
      { id: 'a', name: 'echo', arguments: {}, rawArguments: {} },
      '.rawArguments` must be a string',
    ],
    ['a function in extraContent', { id: 'a', name: 'echo', arguments: {}, extraContent: { f: () => 1 } }, 'JSON data'],
    ['an own toJSON in extraContent', { id: 'a', name: 'echo', arguments: {}, extraContent: { toJSON: 1 } }, 'toJSON'],
  ];
  for (const [name, entry, message] of cases) {
    it(`${name} is refused with a protocol_violation ModelCallError`, async () => {
      const model = modelAnswering(() => ({ ...base, finishReason: 'tool_calls', toolCalls: [entry] }));
      const events: string[] = [];
      const error = await new AgentHarness({ model, tools: [echo] })
        .invoke('go', { onEvent: (event) => events.push(event.type) })
        .catch((thrown: unknown) => thrown);
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'protocol_violation', isRetryable: false });
      expect((error as Error).message).toContain(message);
      expect(events).not.toContain('model_completed');
    });
  }

  it('a well-formed entry runs, its extraContent recorded as a copy the provider cannot edit', async () => {
    const extraContent = { signature: 'abc', parts: [1, 'two', null] };
    const entry = { id: 'a', name: 'echo', arguments: {}, rawArguments: '{}', extraContent };
    const model = modelAnswering(() => ({ ...base, finishReason: 'tool_calls', toolCalls: [entry] }));
    const run = await new AgentHarness({ model, tools: [echo] }).invoke('go');
    extraContent.signature = 'edited';
    expect(run.outcome).toBe('final');
    expect(JSON.stringify(run.messages)).toContain('"signature":"abc"');
  });
});
