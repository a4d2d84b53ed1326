import { defineTool, InvalidInputError, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ScriptedModel } from '../testkit/index.js';

const model = () => new ScriptedModel({ steps: [{ content: 'ok' }, { content: 'again' }] });

async function reason(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(InvalidInputError.isInstance(error), String(error)).toBe(true);
    return (error as InvalidInputError).message;
  }
  return 'accepted';
}

describe('unknown option keys', () => {
  it('AgentHarness names the key and the AI SDK name it came from', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ maxSteps: 5 }, 'AgentHarness: unknown option `maxSteps`; did you mean `limits.maxModelCalls`?'],
      [{ stopWhen: () => true }, 'did you mean `limits.maxModelCalls`?'],
      [{ system: 'be brief' }, "did you mean `a { role: 'system' } message first"],
      [{ experimental_context: {} }, 'did you mean `RunContext.hostValues'],
      [{ needsApproval: true }, 'did you mean `policy: ToolPolicy.classified().requiringApproval()'],
      [{ captureToolIo: true }, 'did you mean `policy.captureToolIo`?'],
      [{ midleware: [] }, 'did you mean `middleware`?'],
      [{ policy: { maxConcurency: 2 } }, 'unknown option `policy.maxConcurency`; did you mean `maxConcurrency`?'],
      [{ policy: { maxModelCalls: 2 } }, 'unknown option `policy.maxModelCalls`; did you mean `limits.maxModelCalls`?'],
      [{ limits: { maxSteps: 2 } }, 'unknown option `limits.maxSteps`; did you mean `maxModelCalls`?'],
      [{ limits: { maxRetries: 2 } }, 'did you mean `maxRetriesPerCall`?'],
      [{ tools: { weather: {} } }, 'an object keyed by name (the AI SDK shape) is not accepted'],
    ];
    for (const [options, expected] of cases)
      expect(await reason(() => new AgentHarness({ model: model(), ...options } as never))).toContain(expected);
    expect(
      await reason(
        () => new AgentHarness({ model: model(), policy: { maxConcurrency: 2 }, limits: { maxModelCalls: 3 } }),
      ),
    ).toBe('accepted');
  });

  it('invoke and stream check the context, options, policy, limits and model settings of each run', async () => {
    const harness = new AgentHarness({ model: model() });
    const cases: [unknown, unknown, string][] = [
      [
        {},
        { maxSteps: 3 },
        'AgentHarness.invoke: unknown option `options.maxSteps`; did you mean `limits.maxModelCalls`?',
      ],
      [{}, { experimental_context: {} }, 'did you mean `RunContext.hostValues'],
      [{}, { abortSignal: new AbortController().signal }, 'did you mean `RunContext.signal'],
      [{}, { temperature: 0 }, 'did you mean `modelSettings.temperature`?'],
      [
        {},
        { modelSettings: { maxOutputTokens: 5 } },
        '`options.modelSettings.maxOutputTokens`; did you mean `maxTokens`?',
      ],
      [{}, { policy: { toolDialekt: 'xml' } }, 'did you mean `toolDialect`?'],
      [{}, { limits: { wallClock: 5 } }, 'did you mean `wallClockMs`?'],
      [
        { experimental_context: { id: 1 } },
        {},
        'unknown option `context.experimental_context`; did you mean `hostValues`?',
      ],
      [{ abortSignal: undefined }, {}, 'did you mean `signal`?'],
    ];
    for (const [context, options, expected] of cases) {
      expect(await reason(() => harness.invoke(context as never, 'hi', options as never))).toContain(expected);
      expect(await reason(() => harness.stream(context as never, 'hi', options as never).result)).toContain(
        expected.replace('AgentHarness.invoke', 'AgentHarness.stream'),
      );
    }
    const run = await harness.invoke({ hostValues: {} }, 'hi', {
      limits: { maxModelCalls: 2 },
      modelSettings: { temperature: 0 },
    });
    expect(run.text).toBe('ok');
  });

  it('a tool with needsApproval is refused instead of running without approval', () => {
    expect(() =>
      defineTool({
        name: 'pay',
        description: 'Pay.',
        parameters: Type.Object({}),
        needsApproval: true,
        execute: () => 'paid',
      } as never),
    ).toThrow('did you mean `policy: ToolPolicy.classified().requiringApproval()`?');
    expect(ToolPolicy.classified().requiringApproval().access.approvalRequired).toBe(true);
  });
});

describe('invoke without a context', () => {
  it('takes a prompt or messages, and the options second', async () => {
    const harness = new AgentHarness({ model: model() });
    const first = await harness.invoke('hi', { recordEvents: false });
    expect(first.messages[0]).toEqual({ role: 'user', content: 'hi' });
    expect(first.events).toEqual([]);
    const stream = harness.stream([{ role: 'user', content: 'again?' }]);
    for await (const _event of stream);
    expect((await stream.result).text).toBe('again');
  });
});
