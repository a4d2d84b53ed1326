import { InvalidInputError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

const user = [{ role: 'user' as const, content: 'go' }];
const model = () => new ScriptedModel({ steps: [{ content: 'ok' }] });

function expectInvalid(run: () => unknown, option: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(InvalidInputError.isInstance(thrown), `no InvalidInputError for ${option}`).toBe(true);
  expect((thrown as Error).message).toContain(`\`${option}\``);
}

const badLimits: [string, unknown][] = [
  ['maxModelCalls', Number.NaN],
  ['maxModelCalls', -1],
  ['maxModelCalls', 1.5],
  ['maxToolCalls', Number.NaN],
  ['maxToolCalls', Number.NEGATIVE_INFINITY],
  ['maxToolCalls', '5'],
  ['maxRetriesPerCall', Number.POSITIVE_INFINITY],
  ['maxRetriesPerCall', 0.5],
  ['wallClockMs', 0],
  ['wallClockMs', -10],
  ['wallClockMs', Number.NaN],
  ['retryDelayMs', Number.POSITIVE_INFINITY],
  ['retryDelayMs', -1],
];
const badPolicy: [string, unknown][] = [
  ['maxConcurrency', 0],
  ['maxConcurrency', Number.NaN],
  ['maxConcurrency', 2.5],
  ['droppedToolCallNudges', -1],
  ['droppedToolCallNudges', Number.POSITIVE_INFINITY],
  ['toolDialect', 'klingon'],
  ['invalidArgs', 'ignore'],
  ['unknownTool', { kind: 'shrug' }],
  ['toolErrors', null],
  ['captureToolIo', 'yes'],
];

describe('numeric and choice options', () => {
  it.each(badLimits)('the harness refuses limits.%s = %s', (key, value) => {
    expectInvalid(() => new AgentHarness({ model: model(), limits: { [key]: value } }), `limits.${key}`);
  });

  it.each(badPolicy)('the harness refuses policy.%s = %j', (key, value) => {
    const option = key === 'unknownTool' ? 'policy.unknownTool.kind' : `policy.${key}`;
    expectInvalid(() => new AgentHarness({ model: model(), policy: { [key]: value } as never }), option);
  });

  it.each(badLimits)('a run refuses options.limits.%s = %s before calling the model', async (key, value) => {
    const scripted = model();
    const run = new AgentHarness({ model: scripted }).invoke({}, user, { limits: { [key]: value } });
    await expect(run).rejects.toThrow(`\`options.limits.${key}\``);
    await expect(run).rejects.toSatisfy(InvalidInputError.isInstance);
    expect(scripted.calls).toBe(0);
  });

  it('refuses bad tool timeouts, discovery numbers and ScriptedModel chunk sizes', () => {
    const timeouts = { inheritedMs: 100, minMs: 10, maxMs: 5, graceMs: 0 };
    expectInvalid(
      () => new AgentHarness({ model: model(), limits: { toolTimeouts: timeouts } }),
      'limits.toolTimeouts.maxMs',
    );
    expectInvalid(
      () => new AgentHarness({ model: model(), discovery: { maxLimit: Number.NaN } }),
      'discovery.maxLimit',
    );
    expectInvalid(() => new ScriptedModel({ steps: [], chunkSize: 0 }), 'chunkSize');
  });

  it('takes Infinity as "no limit" where documented, and a run with it still ends', async () => {
    const scripted = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('missing', {})] }, { content: 'done' }],
    });
    const harness = new AgentHarness({
      model: scripted,
      limits: {
        maxModelCalls: Number.POSITIVE_INFINITY,
        maxToolCalls: Number.POSITIVE_INFINITY,
        wallClockMs: Number.POSITIVE_INFINITY,
      },
      policy: { maxConcurrency: Number.POSITIVE_INFINITY },
    });
    expect((await harness.invoke({}, user)).text).toBe('done');
  });

  it('keeps the default for a limit set to undefined (an unset env var never lifts a budget)', async () => {
    const scripted = new ScriptedModel({ repeatLast: true, steps: [{ toolCalls: [scriptedToolCall('missing', {})] }] });
    const harness = new AgentHarness({ model: scripted, limits: { maxModelCalls: undefined, maxToolCalls: 3 } });
    await expect(harness.invoke({}, user, { limits: { maxToolCalls: undefined } })).rejects.toMatchObject({
      name: 'LimitExceededError',
      limitKind: 'tool_calls',
      limit: 3,
    });
  });

  it.each([
    ['a null context', null, undefined, '`context`'],
    ['a string context', 'ctx', undefined, '`context`'],
    ['a signal that is not one', { signal: {} }, undefined, '`context.signal`'],
    ['null options', {}, null, '`options`'],
    ['an onEvent that is not a function', {}, { onEvent: 5 }, '`options.onEvent`'],
  ])('invoke refuses %s with a typed error', async (_name, context, options, place) => {
    const run = new AgentHarness({ model: model() }).invoke(context as never, user, options as never);
    await expect(run).rejects.toSatisfy(InvalidInputError.isInstance);
    await expect(run).rejects.toThrow(place);
  });
});
