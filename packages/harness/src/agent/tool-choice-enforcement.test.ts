import type { Message, ToolChoice } from '@tiny/llm';
import { defineTool, InvalidInputError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { DeferredToolResults } from '../deferral/deferred-tool-results.js';
import { parseRunState, type RunState, serializeRunState } from '../deferral/run-state.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { ToolChoiceIgnoredError } from '../errors/tool-choice-ignored-error.js';
import { ToolChoiceUnavailableError } from '../errors/tool-choice-unavailable-error.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ContextualToolSelectionMiddleware } from '../middleware/contextual-tool-selection-middleware.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness, type InvokeOptions } from './agent-harness.js';

// Issue #32 item 3, the breaker's follow-up (/tmp/breakers/forced-choice repro-1..3, a2, a4): a
// forced choice is validated at the option boundary, fails closed when it cannot be honoured, is
// kept across a pause, and is not switched off by a middleware that passes the request through.

function world() {
  const ran: string[] = [];
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city.',
    parameters: Type.Object({ city: Type.String() }, { additionalProperties: false }),
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
  const book = defineTool({
    name: 'book',
    description: 'Books a trip.',
    parameters: Type.Object({ city: Type.String() }),
    policy: ToolPolicy.classified().withSideEffects({ payment: true }).requiringApproval(),
    execute: ({ city }) => {
      ran.push(`book:${city}`);
      return 'booked';
    },
  });
  return { ran, tools: [weather, wipe, book] };
}

const ask: Message[] = [{ role: 'user', content: 'go' }];
const wipeCall = () => scriptedToolCall('wipe', {});
const weatherCall = () => scriptedToolCall('weather', { city: 'Oslo' });

describe('toolChoice is validated at the option boundary', () => {
  it.each([
    ['none', { type: 'none' }],
    ['required', { type: 'required' }],
    ['auto', { type: 'auto' }],
  ] as const)('the AI SDK string %j is read as %j and enforced', async (text, object) => {
    const { ran, tools } = world();
    const steps = text === 'required' ? [{ content: 'prose' }] : [{ toolCalls: [wipeCall()] }, { content: 'ok' }];
    const model = new ScriptedModel({ steps, repeatLast: true });
    const harness = new AgentHarness({ model, tools });
    const run = await harness
      .invoke({}, ask, { toolChoice: text as unknown as ToolChoice })
      .catch((error: unknown) => error);
    expect(model.requests[0]?.toolChoice).toEqual(object);
    if (text === 'none') expect(ran).toEqual([]);
    if (text === 'required') expect(ToolChoiceIgnoredError.isInstance(run)).toBe(true);
    if (text === 'auto') expect(ran).toEqual(['wipe']);
  });

  const bad: [string, unknown][] = [
    ['another string', 'any'],
    ['a wrong case', { type: 'NONE' }],
    ['an unknown type', { type: 'function', function: { name: 'weather' } }],
    ['a tool without a name', { type: 'tool' }],
    ['a tool with an empty name', { type: 'tool', toolName: '' }],
    ['a tool name that is not a string', { type: 'tool', toolName: 7 }],
    ['a toolName beside another type', { type: 'required', toolName: 'weather' }],
    ['null', null],
    ['an array', ['none']],
  ];
  for (const entry of ['invoke', 'stream', 'resumeDeferred'] as const)
    it.each(bad)(`${entry}: %s is an InvalidInputError naming the option, before any model call`, async (_, choice) => {
      const { ran, tools } = world();
      const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('book', { city: 'Oslo' }, 'c1')] }] });
      const harness = new AgentHarness({ model, tools });
      const options = { toolChoice: choice } as unknown as InvokeOptions;
      let attempt: Promise<unknown>;
      if (entry === 'invoke') attempt = harness.invoke({}, ask, options);
      else if (entry === 'stream') attempt = harness.stream({}, ask, options).result;
      else {
        const paused = await harness.invoke({}, ask);
        expect(paused.outcome).toBe('deferred');
        attempt = harness.resumeDeferred(
          {},
          paused.state as RunState,
          new DeferredToolResults().approve('c1'),
          options,
        );
      }
      const error = await attempt.catch((caught: unknown) => caught);
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('`options.toolChoice`');
      expect(model.requests).toHaveLength(entry === 'resumeDeferred' ? 1 : 0);
      expect(ran).toEqual([]);
    });

  it('a beforeModel patch with an unknown choice is refused, not read as no choice', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({ steps: [{ toolCalls: [wipeCall()] }, { content: 'ok' }] });
    const patcher: AgentMiddleware = {
      name: 'patcher',
      beforeModel: () => ({ toolChoice: { type: 'NONE' } as unknown as ToolChoice }),
    };
    const error = await new AgentHarness({ model, tools, middleware: [patcher] })
      .invoke({}, ask)
      .catch((caught: unknown) => caught);
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(model.requests).toHaveLength(0);
    expect(ran).toEqual([]);
  });
});

describe('a forced choice that cannot be honoured fails closed before the model call', () => {
  const hideWeather: AgentMiddleware = {
    name: 'hide',
    filterTools: (tools) => tools.filter((tool) => tool.name !== 'weather'),
  };
  const patchOutWeather: AgentMiddleware = {
    name: 'trim',
    beforeModel: (request) => ({ tools: request.tools.filter((tool) => tool.name !== 'weather') }),
  };
  it.each([
    ['a name in another case', { type: 'tool', toolName: 'Weather' }, []],
    ['a misspelled name', { type: 'tool', toolName: 'weathr' }, []],
    ['a tool withheld by filterTools', { type: 'tool', toolName: 'weather' }, [hideWeather]],
    [
      'a tool denied by contextual selection',
      { type: 'tool', toolName: 'weather' },
      [ContextualToolSelectionMiddleware.fromLists({ deny: ['weather'] })],
    ],
    ['a tool patched out by beforeModel', { type: 'tool', toolName: 'weather' }, [patchOutWeather]],
    [
      'required with an empty allow list',
      { type: 'required' },
      [ContextualToolSelectionMiddleware.fromLists({ allow: [] })],
    ],
  ] as [string, ToolChoice, AgentMiddleware[]][])(
    '%s: ToolChoiceUnavailableError, no other tool runs',
    async (_, choice, middleware) => {
      const { ran, tools } = world();
      const model = new ScriptedModel({ steps: [{ toolCalls: [wipeCall()] }, { content: 'done' }] });
      const error = await new AgentHarness({ model, tools })
        .invoke({}, ask, { toolChoice: choice, middleware })
        .catch((caught: unknown) => caught);
      expect(ToolChoiceUnavailableError.isInstance(error)).toBe(true);
      expect((error as ToolChoiceUnavailableError).toolChoice).toEqual(choice);
      expect((error as ToolChoiceUnavailableError).offeredTools).not.toContain(
        choice.type === 'tool' ? choice.toolName : '',
      );
      expect(model.requests).toHaveLength(0);
      expect(ran).toEqual([]);
    },
  );

  it('required with no tool registered fails typed instead of taking prose as final', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'prose' }] });
    const error = await new AgentHarness({ model, tools: [] })
      .invoke({}, ask, { toolChoice: 'required' })
      .catch((caught: unknown) => caught);
    expect(ToolChoiceUnavailableError.isInstance(error)).toBe(true);
    expect((error as ToolChoiceUnavailableError).offeredTools).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it('a tool withheld only from turn 2 on fails on turn 2, after turn 1 ran', async () => {
    const { ran, tools } = world();
    const laterHide: AgentMiddleware = {
      name: 'later',
      filterTools: (offered, context) =>
        context.turn > 1 ? offered.filter((tool) => tool.name !== 'weather') : offered,
    };
    const model = new ScriptedModel({ steps: [{ toolCalls: [weatherCall()] }, { toolCalls: [wipeCall()] }] });
    const error = await new AgentHarness({ model, tools })
      .invoke({}, ask, { toolChoice: { type: 'tool', toolName: 'weather' }, middleware: [laterHide] })
      .catch((caught: unknown) => caught);
    expect(ToolChoiceUnavailableError.isInstance(error)).toBe(true);
    expect((error as ToolChoiceUnavailableError).turn).toBe(2);
    expect(ran).toEqual(['weather:Oslo']);
    expect(model.requests).toHaveLength(1);
  });
});

describe('a paused or checkpointed run keeps its forced choice', () => {
  const bookCall = () => scriptedToolCall('book', { city: 'Oslo' }, 'c1');

  async function pause(choice: ToolChoice, steps: ConstructorParameters<typeof ScriptedModel>[0]['steps']) {
    const { ran, tools } = world();
    const model = new ScriptedModel({ steps, repeatLast: true });
    const harness = new AgentHarness({ model, tools });
    const paused = await harness.invoke({}, ask, { toolChoice: choice });
    expect(paused.outcome).toBe('deferred');
    return { ran, model, harness, state: paused.state as RunState };
  }

  it('the state records the choice as version 2 and a serialised round trip keeps it', async () => {
    const { state } = await pause({ type: 'tool', toolName: 'book' }, [{ toolCalls: [bookCall()] }]);
    expect(state.version).toBe(2);
    expect(state.toolChoice).toEqual({ type: 'tool', toolName: 'book' });
    expect(parseRunState(serializeRunState(state)).toolChoice).toEqual({ type: 'tool', toolName: 'book' });
  });

  it('a run without a forced choice still writes version 1 with no choice', async () => {
    const { state } = await pause({ type: 'auto' }, [{ toolCalls: [bookCall()] }]);
    expect(state.version).toBe(1);
    expect(state.toolChoice).toBeUndefined();
  });

  it.each([
    ['required, resumed and answered in prose', { type: 'required' }, [{ content: 'prose' }]],
    ['book named, resumed and answered with wipe', { type: 'tool', toolName: 'book' }, [{ toolCalls: [wipeCall()] }]],
  ] as [string, ToolChoice, { content?: string }[]][])(
    '%s: the resume enforces the saved choice',
    async (_, choice, after) => {
      const { ran, harness, model, state } = await pause(choice, [{ toolCalls: [bookCall()] }, ...after]);
      const error = await harness
        .resumeDeferred({}, serializeRunState(state), new DeferredToolResults().approve('c1'))
        .catch((caught: unknown) => caught);
      expect(ToolChoiceIgnoredError.isInstance(error)).toBe(true);
      expect(model.requests[1]?.toolChoice).toEqual(choice);
      expect(ran).toEqual(['book:Oslo']);
    },
  );

  it('resume options override the saved choice', async () => {
    const { ran, harness, state } = await pause({ type: 'required' }, [
      { toolCalls: [bookCall()] },
      { content: 'done' },
    ]);
    const run = await harness.resumeDeferred({}, state, new DeferredToolResults().approve('c1'), {
      toolChoice: 'auto',
    });
    expect(run.outcome).toBe('final');
    expect(run.text).toBe('done');
    expect(ran).toEqual(['book:Oslo']);
  });

  it('a crash resume from a checkpoint enforces the run choice', async () => {
    const { ran, tools } = world();
    const saved: RunState[] = [];
    const crashing = new ScriptedModel({ steps: [{ toolCalls: [weatherCall()] }] });
    const failing = defineTool({
      name: 'weather',
      description: 'Weather for a city.',
      parameters: Type.Object({ city: Type.String() }),
      execute: () => {
        throw new Error('process died');
      },
    });
    await new AgentHarness({
      model: crashing,
      tools: [failing, ...tools.slice(1)],
      policy: { toolErrors: { kind: 'fail' } },
    })
      .invoke({}, ask, {
        toolChoice: { type: 'tool', toolName: 'weather' },
        onCheckpoint: (state) => void saved.push(state),
      })
      .catch(() => undefined);
    expect(saved[0]?.toolChoice).toEqual({ type: 'tool', toolName: 'weather' });
    const model = new ScriptedModel({ steps: [{ toolCalls: [wipeCall()] }], repeatLast: true });
    const error = await new AgentHarness({ model, tools })
      .resume({}, serializeRunState(saved[0] as RunState))
      .catch((caught: unknown) => caught);
    expect(ToolChoiceIgnoredError.isInstance(error)).toBe(true);
    expect(ran).toEqual(['weather:Oslo']);
  });

  it('parseRunState refuses a choice in a version-1 state and a choice of a bad shape', () => {
    const base = { runId: 'r', messages: [], budgets: { modelCalls: 0, toolCalls: 0 }, usage: {} };
    expect(() => parseRunState({ ...base, version: 1, toolChoice: { type: 'none' } })).toThrow(InvalidRunStateError);
    for (const toolChoice of [
      { type: 'NONE' },
      { type: 'tool' },
      { type: 'tool', toolName: '' },
      'none',
      { type: 'auto' },
    ])
      expect(() => parseRunState({ ...base, version: 2, toolChoice })).toThrow(InvalidRunStateError);
    expect(parseRunState({ ...base, version: 2, toolChoice: { type: 'none' } }).toolChoice).toEqual({ type: 'none' });
    expect(parseRunState({ ...base, version: 2 }).toolChoice).toBeUndefined();
  });
});

describe('a beforeModel middleware does not switch the check off', () => {
  const passThrough: AgentMiddleware = { name: 'pass', beforeModel: (request) => ({ ...request }) };
  const reassertNone: AgentMiddleware = { name: 'safety', beforeModel: () => ({ toolChoice: { type: 'none' } }) };
  const toAuto: AgentMiddleware = { name: 'relax', beforeModel: () => ({ toolChoice: { type: 'auto' } }) };

  it.each([
    ['a pass-through patch', passThrough],
    ['a patch re-asserting none', reassertNone],
    ['a patch changing none to auto', toAuto],
  ])('run none + %s: the call never runs, under every policy', async (_, middleware) => {
    for (const mode of ['retry_then_error', 'error', 'accept'] as const) {
      const { ran, tools } = world();
      const model = new ScriptedModel({ steps: [{ toolCalls: [wipeCall()] }, { content: 'ok' }], repeatLast: true });
      const run = await new AgentHarness({ model, tools })
        .invoke({}, ask, {
          toolChoice: { type: 'none' },
          middleware: [middleware],
          policy: { toolChoiceIgnored: mode },
        })
        .catch((caught: unknown) => caught);
      expect(ran).toEqual([]);
      expect(model.requests[0]?.toolChoice).toEqual({ type: 'none' });
      if (mode === 'error') expect(ToolChoiceIgnoredError.isInstance(run)).toBe(true);
    }
  });

  it('run auto + a patch to none: the call never runs', async () => {
    const { ran, tools } = world();
    const model = new ScriptedModel({ steps: [{ toolCalls: [wipeCall()] }, { content: 'ok' }] });
    const harness = new AgentHarness({ model, tools });
    const events: string[] = [];
    const run = await harness.invoke({}, ask, {
      middleware: [reassertNone],
      onEvent: (event) => void events.push(event.type),
    });
    expect(ran).toEqual([]);
    expect(run.text).toBe('ok');
    expect(events).toContain('tool_choice_ignored');
  });

  it('run required + a pass-through patch: prose is still not final', async () => {
    const { tools } = world();
    const model = new ScriptedModel({ steps: [{ content: 'prose' }], repeatLast: true });
    const error = await new AgentHarness({ model, tools })
      .invoke({}, ask, { toolChoice: { type: 'required' }, middleware: [passThrough] })
      .catch((caught: unknown) => caught);
    expect(ToolChoiceIgnoredError.isInstance(error)).toBe(true);
  });

  it('run required + a patch that really changes it to auto: the middleware owns the check', async () => {
    const { tools } = world();
    const model = new ScriptedModel({ steps: [{ content: 'prose' }] });
    const run = await new AgentHarness({ model, tools }).invoke({}, ask, {
      toolChoice: { type: 'required' },
      middleware: [toAuto],
    });
    expect(run.outcome).toBe('final');
    expect(eventsOfType(run.events, 'tool_choice_ignored')).toEqual([]);
    expect(model.requests[0]?.toolChoice).toEqual({ type: 'auto' });
  });
});
