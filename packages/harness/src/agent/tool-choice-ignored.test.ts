import { type Message, messageText } from '@tiny/llm';
import { defineTool, InvalidInputError } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ToolChoiceIgnoredError } from '../errors/tool-choice-ignored-error.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

// Issue #32, item 3: local servers take `tool_choice: required` or a named tool and answer in
// prose, or call tools under `none` (reported against Ollama, LM Studio, vLLM and llama.cpp). A
// forced choice is enforced: one retry with the choice spelled out, then a typed error.

function world() {
  const ran: string[] = [];
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    parameters: Type.Object({ city: Type.String() }, { additionalProperties: false }),
    returnDirect: true,
    execute: ({ city }) => {
      ran.push(`weather:${city}`);
      return `${city}: sunny`;
    },
  });
  const wipe = defineTool({
    name: 'wipe',
    description: 'Deletes everything.',
    parameters: Type.Object({}),
    execute: () => {
      ran.push('wipe');
      return 'wiped';
    },
  });
  return { ran, tools: [weather, wipe] };
}

const ask: Message[] = [{ role: 'user', content: 'Weather in Oslo?' }];
const lastUserText = (messages: readonly Message[]) =>
  messageText([...messages].reverse().find((message) => message.role === 'user') as Message);

describe('a forced tool choice the model ignores', () => {
  it('required answered in prose twice: one retry with the choice spelled out, then ToolChoiceIgnoredError', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({ steps: [{ content: 'It is sunny.' }, { content: 'Still sunny.' }] });
    const harness = new AgentHarness({ model, tools });
    const error = await harness.invoke({}, ask, { toolChoice: { type: 'required' } }).catch((caught) => caught);
    expect(ToolChoiceIgnoredError.isInstance(error)).toBe(true);
    expect(error.attempts).toBe(2);
    expect(error.calledTools).toEqual([]);
    expect(error.message).toMatch(/asked for a tool call, got an answer without calls \(2 attempts\)/);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.toolChoice).toEqual({ type: 'required' });
    expect(lastUserText(model.requests[1]?.messages ?? [])).toMatch(/must \(tool choice `required`\)/);
    expect(ran).toEqual([]);
  });

  it('the retry that calls runs the call; the events say what happened', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({
      steps: [{ content: 'It is sunny.' }, { toolCalls: [scriptedToolCall('weather', { city: 'Oslo' })] }],
    });
    const run = await new AgentHarness({ model, tools }).invoke({}, ask, {
      toolChoice: { type: 'tool', toolName: 'weather' },
    });
    expect(run.outcome).toBe('return_direct');
    expect(ran).toEqual(['weather:Oslo']);
    expect(run.modelCalls).toBe(2);
    expect(eventsOfType(run.events, 'tool_choice_ignored')).toEqual([
      expect.objectContaining({
        toolChoice: { type: 'tool', toolName: 'weather' },
        calledTools: [],
        attempt: 1,
        action: 'retry',
      }),
    ]);
    // The ignored prose stays in the transcript, followed by the reminder; no call was recorded for it.
    expect(run.messages.slice(1, 3)).toEqual([
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: expect.stringContaining('`weather`') },
    ]);
  });

  it('a named choice answered with another tool: that tool never runs', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('wipe', {}, 'w1')] }, { toolCalls: [scriptedToolCall('wipe', {}, 'w2')] }],
    });
    const error = await new AgentHarness({ model, tools })
      .invoke({}, ask, { toolChoice: { type: 'tool', toolName: 'weather' } })
      .catch((caught) => caught);
    expect(ToolChoiceIgnoredError.isInstance(error)).toBe(true);
    expect(error.calledTools).toEqual(['wipe']);
    expect(ran).toEqual([]);
    // No recorded turn carries the ignored calls, so no result is owed for them.
    expect((error.messages as Message[]).some((message) => message.role === 'assistant' && message.toolCalls)).toBe(
      false,
    );
  });

  it('none answered with calls: the calls never run, whatever the policy', async () => {
    for (const mode of ['retry_then_error', 'error', 'accept'] as const) {
      const { ran, tools } = world();
      const model = new ScriptedModel({
        steps: [
          { content: 'Calling.', toolCalls: [scriptedToolCall('wipe', {})] },
          { content: 'No tools, then: sunny.' },
        ],
      });
      const outcome = await new AgentHarness({ model, tools, policy: { toolChoiceIgnored: mode } })
        .invoke({}, ask, { toolChoice: { type: 'none' } })
        .catch((caught) => caught);
      expect(ran, mode).toEqual([]);
      if (mode === 'error') expect(ToolChoiceIgnoredError.isInstance(outcome)).toBe(true);
      else if (mode === 'accept')
        expect([outcome.outcome, outcome.text, outcome.modelCalls]).toEqual(['final', 'Calling.', 1]);
      else {
        expect([outcome.outcome, outcome.text, outcome.modelCalls]).toEqual(['final', 'No tools, then: sunny.', 2]);
        expect(lastUserText(model.requests[1]?.messages ?? [])).toMatch(/were not run/);
      }
    }
  });

  it("'error' ends at the first ignored response; 'accept' takes the prose with an event", async () => {
    const { tools } = world();
    const strict = new ScriptedModel({ steps: [{ content: 'prose' }] });
    const error = await new AgentHarness({ model: strict, tools, policy: { toolChoiceIgnored: 'error' } })
      .invoke({}, ask, { toolChoice: { type: 'required' } })
      .catch((caught) => caught);
    expect([ToolChoiceIgnoredError.isInstance(error), error.attempts, strict.requests.length]).toEqual([true, 1, 1]);

    const lenient = new ScriptedModel({ steps: [{ content: 'prose' }] });
    const run = await new AgentHarness({ model: lenient, tools, policy: { toolChoiceIgnored: 'accept' } }).invoke(
      {},
      ask,
      { toolChoice: { type: 'required' } },
    );
    expect([run.outcome, run.text]).toEqual(['final', 'prose']);
    expect(eventsOfType(run.events, 'tool_choice_ignored')[0]?.action).toBe('accept');
  });

  it('streaming: the ignored prose was streamed, then the event says it was ignored and the run fails typed', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({ steps: [{ content: 'Sunny.' }, { content: 'Sunny!' }] });
    const stream = new AgentHarness({ model, tools }).stream({}, ask, { toolChoice: { type: 'required' } });
    const types: string[] = [];
    const failure = (async () => {
      for await (const event of stream) types.push(event.type);
    })().catch((caught) => caught);
    const error = await stream.result.catch((caught) => caught);
    await failure;
    expect(ToolChoiceIgnoredError.isInstance(error)).toBe(true);
    expect(types.filter((type) => type === 'tool_choice_ignored')).toHaveLength(2);
    expect(types.indexOf('model_delta')).toBeLessThan(types.indexOf('tool_choice_ignored'));
    expect(ran).toEqual([]);
  });

  it('the retry is a model call: it counts against limits.maxModelCalls', async () => {
    const { tools } = world();
    const model = new ScriptedModel({ steps: [{ content: 'prose' }], repeatLast: true });
    const error = await new AgentHarness({ model, tools, limits: { maxModelCalls: 1 } })
      .invoke({}, ask, { toolChoice: { type: 'required' } })
      .catch((caught) => caught);
    expect(error.name).toBe('LimitExceededError');
    expect(model.requests).toHaveLength(1);
  });

  it('a text-format tool forced on a native run goes out as auto plus prompt text, and is still enforced', async () => {
    const { ran, tools } = world();
    const registry = new ToolRegistry()
      .register(tools[0] as never, { format: { type: 'xml' } })
      .register(tools[1] as never);
    const model = new ScriptedModel({
      steps: [{ content: 'sunny' }, { content: '<weather><city>Oslo</city></weather>' }],
    });
    const run = await new AgentHarness({ model, tools: registry }).invoke({}, ask, {
      toolChoice: { type: 'tool', toolName: 'weather' },
    });
    expect(model.requests[0]?.toolChoice).toEqual({ type: 'auto' });
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('weather');
    expect(eventsOfType(run.events, 'tool_choice_ignored').map((event) => event.action)).toEqual(['retry']);
    expect(ran).toEqual(['weather:Oslo']);
  });

  it('a choice a middleware patches in is left to that middleware', async () => {
    const { tools } = world();
    const model = new ScriptedModel({ steps: [{ content: 'prose' }] });
    const run = await new AgentHarness({
      model,
      tools,
      middleware: [{ name: 'force', beforeModel: () => ({ toolChoice: { type: 'required' } }) }],
    }).invoke({}, ask);
    expect([run.outcome, eventsOfType(run.events, 'tool_choice_ignored')]).toEqual(['final', []]);
  });

  it('an unknown policy value is refused up front', () => {
    expect(
      () =>
        new AgentHarness({ model: new ScriptedModel({ steps: [] }), policy: { toolChoiceIgnored: 'ignore' as never } }),
    ).toThrow(InvalidInputError);
  });
});
