import { describe, expect, it } from 'vitest';
import { mapUsage } from './map-usage.js';

describe('mapUsage', () => {
  it('counts tool-use prompt tokens as input and thoughts as output; cached and reasoning are parts of them', () => {
    // field names from the Gemini API's UsageMetadata reference
    expect(
      mapUsage({
        promptTokenCount: 1200,
        cachedContentTokenCount: 1024,
        toolUsePromptTokenCount: 80,
        candidatesTokenCount: 40,
        thoughtsTokenCount: 300,
        totalTokenCount: 1620,
      }),
    ).toEqual({
      inputTokens: 1280,
      cachedInputTokens: 1024,
      outputTokens: 340,
      reasoningTokens: 300,
      totalTokens: 1620,
    });
  });

  it('leaves out what was never reported (a usage-only chunk of a stream carries only trafficType)', () => {
    expect(mapUsage({ trafficType: 'ON_DEMAND' })).toEqual({});
    expect(mapUsage(undefined)).toEqual({});
    expect(mapUsage({ promptTokenCount: 9, candidatesTokenCount: 2 })).toEqual({
      inputTokens: 9,
      outputTokens: 2,
      totalTokens: 11,
    });
  });
});
