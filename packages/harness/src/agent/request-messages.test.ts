import {
  createModelProfile,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
  type Message,
} from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from './agent-harness.js';

const usage = { inputTokens: 1, outputTokens: 1 };

const add = defineTool({
  name: 'add',
  description: 'Add two integers.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: async ({ a, b }: { a: number; b: number }) => String(a + b),
});

/**
 * A model that vandalises the messages array of every request it gets (push, splice, index
 * assignment, length cut) and keeps each array, as a careless provider or a middleware-less
 * wrapper might: two turns with a call each, then an answer.
 */
function vandalModel(): { model: LanguageModelV1; seen: Message[][]; kept: (readonly Message[])[] } {
  const seen: Message[][] = [];
  const kept: (readonly Message[])[] = [];
  const responses: LanguageModelV1Response[] = [
    {
      content: '',
      toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 }, rawArguments: '{"a":1,"b":2}' }],
      finishReason: 'tool_calls',
      usage,
      warnings: [],
    },
    {
      content: '',
      toolCalls: [{ id: 'c2', name: 'add', arguments: { a: 3, b: 4 }, rawArguments: '{"a":3,"b":4}' }],
      finishReason: 'tool_calls',
      usage,
      warnings: [],
    },
    { content: 'done', toolCalls: [], finishReason: 'stop', usage, warnings: [] },
  ];
  const model: LanguageModelV1 = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'vandal',
    profile: createModelProfile(),
    async doGenerate(request: LanguageModelV1Request) {
      seen.push(request.messages.map((message) => structuredClone(message)));
      const messages = request.messages as Message[];
      kept.push(messages);
      const response = responses[seen.length - 1] as LanguageModelV1Response;
      // After the await, as a provider that edits the array while its request is in flight.
      await Promise.resolve();
      messages.push({ role: 'user', content: 'injected' });
      messages.splice(0, 1);
      messages[0] = { role: 'system', content: 'overwritten' };
      messages.length = 1;
      return response;
    },
    doStream() {
      throw new Error('not used');
    },
  };
  return { model, seen, kept };
}

describe('the messages a request hands the model', () => {
  it('are the model’s to change: the next request and the transcript keep the run’s own history', async () => {
    const { model, seen, kept } = vandalModel();
    const input: Message[] = [{ role: 'user', content: 'add things' }];
    const run = await new AgentHarness({ model, tools: [add] }).invoke({}, input);

    expect(run.outcome).toBe('final');
    expect(run.toolCalls).toBe(2);
    // Each request holds the whole history as it was when sent, untouched by the model's edits.
    expect(seen.map((messages) => messages.map((message) => message.role))).toEqual([
      ['user'],
      ['user', 'assistant', 'tool'],
      ['user', 'assistant', 'tool', 'assistant', 'tool'],
    ]);
    expect(seen[1]?.[0]).toEqual({ role: 'user', content: 'add things' });
    expect(seen.flat().some((message) => message.content === 'injected' || message.content === 'overwritten')).toBe(
      false,
    );
    // The transcript is the run's own: the two calls with their results in order, then the answer.
    expect(run.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(run.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      '3',
      '7',
    ]);
    // Every request got its own array (what the model kept is what it made of it), and the input is the caller's.
    expect(new Set(kept).size).toBe(3);
    for (const array of kept) expect(array).not.toBe(run.messages);
    expect(kept[0]).toEqual([{ role: 'system', content: 'overwritten' }]);
    expect(input).toEqual([{ role: 'user', content: 'add things' }]);
  });
});

describe('a request kept and read later', () => {
  it('holds the history as it was sent, in an array of its own, however many turns came after', async () => {
    const kept: LanguageModelV1Request[] = [];
    let turn = 0;
    const model: LanguageModelV1 = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'keeper',
      profile: createModelProfile(),
      // Never reads the messages while the run goes on: every request is read after the run.
      async doGenerate(request: LanguageModelV1Request) {
        kept.push(request);
        turn += 1;
        if (turn > 3) return { content: 'done', toolCalls: [], finishReason: 'stop', usage, warnings: [] };
        return {
          content: '',
          toolCalls: [{ id: `c${turn}`, name: 'add', arguments: { a: turn, b: 1 }, rawArguments: '' }],
          finishReason: 'tool_calls',
          usage,
          warnings: [],
        };
      },
      doStream() {
        throw new Error('not used');
      },
    };
    const run = await new AgentHarness({ model, tools: [add] }).invoke({}, [{ role: 'user', content: 'go' }]);

    expect(run.toolCalls).toBe(3);
    expect(kept.map((request) => request.messages.length)).toEqual([1, 3, 5, 7]);
    expect(kept[2]?.messages).toEqual(run.messages.slice(0, 5));
    // Each read gives the request's one array; a spread or JSON copy of the request carries it.
    const first = kept[1] as LanguageModelV1Request;
    expect(first.messages).toBe(first.messages);
    expect({ ...first }.messages).toBe(first.messages);
    expect(JSON.parse(JSON.stringify(first)).messages).toEqual(run.messages.slice(0, 3));
    // The array is the request's to change, and the run's transcript is not.
    (first.messages as Message[]).push({ role: 'user', content: 'injected' });
    expect(first.messages).toHaveLength(4);
    expect(run.messages).toHaveLength(8);
    // Assigned messages replace the snapshot, as a plain property would.
    const replaced: Message[] = [{ role: 'user', content: 'other' }];
    (first as { messages: readonly Message[] }).messages = replaced;
    expect(first.messages).toBe(replaced);
  });
});
