import { createModelProfile, type LanguageModelV1, type ModelProfile } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../events/agent-event.js';
import { ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';
import { createTestTools } from './test-tools.js';

/**
 * A model that settles its profile on its first `profileModel` call, the way `autoProfile` of
 * `@tiny/provider-openai` does after probing its server: native tools before, prompt-guided with
 * `first_user` after.
 */
function selfProfilingModel() {
  const inner = new ScriptedModel({
    steps: [{ content: 'Sunny.' }, { content: 'Still sunny.' }],
    profile: { toolCalling: true },
  });
  let profile: ModelProfile = inner.profile;
  const signals: (AbortSignal | undefined)[] = [];
  const model: LanguageModelV1 & { profileModel(signal?: AbortSignal): Promise<unknown> } = {
    specificationVersion: 'v1',
    provider: inner.provider,
    modelId: inner.modelId,
    get profile() {
      return profile;
    },
    doGenerate: (request) => inner.doGenerate(request),
    doStream: (request) => inner.doStream(request),
    async profileModel(signal) {
      signals.push(signal);
      if (signals.length > 1) return undefined;
      profile = createModelProfile({ toolCalling: false, systemPrompt: 'first_user' });
      return {
        modelId: inner.modelId,
        server: 'llamacpp',
        contextLength: 8192,
        toolCalling: false,
        systemPrompt: 'first_user',
        reasons: ['chat template: the template throws on a system message'],
      };
    },
  };
  return { model, inner, signals };
}

describe('a model that profiles itself', () => {
  it('settles its profile before the dialect is picked, and the first run reports it once', async () => {
    const { model, inner, signals } = selfProfilingModel();
    const { all } = createTestTools();
    const harness = new AgentHarness({ model, tools: all });
    const events: AgentEvent[] = [];
    const controller = new AbortController();
    await harness.invoke(
      { signal: controller.signal },
      [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Weather?' },
      ],
      { onEvent: (event) => events.push(event) },
    );
    const types = events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['model_profiled', 'run_started']);
    expect(events[0]).toMatchObject({
      server: 'llamacpp',
      toolCalling: false,
      systemPrompt: 'first_user',
      contextLength: 8192,
    });
    expect(events.find((event) => event.type === 'tools_advertised')).toMatchObject({ dialect: 'tagged_json' });
    expect(inner.requests[0]?.tools).toBeUndefined();
    expect(inner.requests[0]?.messages.map((message) => message.role)).toEqual(['user']);
    expect(signals[0]).toBe(controller.signal);

    const again: AgentEvent[] = [];
    await harness.invoke({}, [{ role: 'user', content: 'And now?' }], { onEvent: (event) => again.push(event) });
    expect(again.some((event) => event.type === 'model_profiled')).toBe(false);
    expect(signals).toHaveLength(2);
  });
});
