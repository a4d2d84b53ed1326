import { AgentHarness, UnwrappedAiSdkModelError } from '@tiny/harness';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromAiSdk } from './from-ai-sdk.js';

describe('an AI SDK model given to the harness unwrapped', () => {
  it('is refused with the advice to wrap it, and works once wrapped', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'hello' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    let thrown: unknown;
    try {
      new AgentHarness({ model: model as never });
    } catch (error) {
      thrown = error;
    }
    expect(UnwrappedAiSdkModelError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toContain('specificationVersion "v3"');
    expect((thrown as Error).message).toContain('`fromAiSdk(model)` from `@tiny/provider-ai-sdk`');
    const run = await new AgentHarness({ model: fromAiSdk(model) }).invoke({}, 'hi');
    expect(run.text).toBe('hello');
  });
});
