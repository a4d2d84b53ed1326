import { InvalidInputError } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { fromAiSdk } from './from-ai-sdk.js';

const model = { specificationVersion: 'v2', provider: 'openai.chat', modelId: 'gpt' } as never;

describe('fromAiSdk options', () => {
  it('refuses an unknown key, pointing AI SDK settings at where they go', () => {
    const reason = (options: unknown) => {
      try {
        fromAiSdk(model, options as never);
        return 'accepted';
      } catch (error) {
        expect(InvalidInputError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
    };
    expect(reason({ maxSteps: 5 })).toBe(
      'fromAiSdk: unknown option `maxSteps`; did you mean `limits.maxModelCalls of the AgentHarness`?',
    );
    expect(reason({ secret: ['k'] })).toBe('fromAiSdk: unknown option `secret`; did you mean `secrets`?');
    expect(reason({ apiKey: 'k' })).toContain('the wrapped provider');
    expect(reason({ profile: { toolCalling: true }, secrets: ['k'] })).toBe('accepted');
  });
});
