import { InvalidInputError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { UnwrappedAiSdkModelError } from '../errors/unwrapped-ai-sdk-model-error.js';
import { ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

/** The shape of an AI SDK model (`@ai-sdk/provider` LanguageModelV2/V3/V4): a version tag and doGenerate/doStream. */
function aiSdkShapedModel(specificationVersion: string) {
  return {
    specificationVersion,
    provider: 'ollama.chat',
    modelId: 'qwen3:4b',
    supportedUrls: {},
    doGenerate: async () => ({}),
    doStream: async () => ({}),
  };
}

describe('an AI SDK model passed as `model`', () => {
  it.each(['v2', 'v3', 'v4'])('specificationVersion %s is refused with the fromAiSdk advice', (version) => {
    let thrown: unknown;
    try {
      new AgentHarness({ model: aiSdkShapedModel(version) as never });
    } catch (error) {
      thrown = error;
    }
    expect(UnwrappedAiSdkModelError.isInstance(thrown)).toBe(true);
    // Hosts that catch InvalidInputError for bad options still catch it.
    expect(InvalidInputError.isInstance(thrown)).toBe(true);
    const error = thrown as UnwrappedAiSdkModelError;
    expect(error.name).toBe('UnwrappedAiSdkModelError');
    expect(error.specificationVersion).toBe(version);
    expect(error.message).toContain(`specificationVersion "${version}"`);
    expect(error.message).toContain('fromAiSdk(model)');
    expect(error.message).toContain('@tiny/provider-ai-sdk');
  });

  it('anything else that is not a model keeps the plain InvalidInputError', () => {
    for (const model of [
      undefined,
      {},
      { specificationVersion: 'v2' },
      { specificationVersion: 'v9x', doGenerate() {} },
    ]) {
      let thrown: unknown;
      try {
        new AgentHarness({ model: model as never });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidInputError.isInstance(thrown)).toBe(true);
      expect(UnwrappedAiSdkModelError.isInstance(thrown)).toBe(false);
    }
  });

  it('a tiny model is accepted', () => {
    expect(() => new AgentHarness({ model: new ScriptedModel({ steps: [] }) })).not.toThrow();
  });
});
