import { AgentHarness } from '@tiny/harness';
import { loadReplayFixture, useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { openai } from './presets/openai.js';

const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));

describe('cached input tokens through the agent loop', () => {
  it("reports prompt_tokens_details.cached_tokens on model_completed and the run's cache hit ratio", async () => {
    // The first exchange of the recorded edge cases: 30 prompt tokens, 16 of them cached.
    const loaded = loadReplayFixture(new URL('./__fixtures__/openai/edge-cases.json', import.meta.url));
    replay
      .server()
      .load({ ...loaded, fixture: { ...loaded.fixture, exchanges: loaded.fixture.exchanges.slice(0, 1) } });
    const model = openai({ baseURL: `${replay.server().url}/v1`, apiKey: 'sk-from-env-000000' })('gpt-4o');
    const run = await new AgentHarness({ model }).invoke({}, [{ role: 'user', content: 'hi' }], {
      modelSettings: { maxTokens: 50 },
    });
    const completed = run.events.find((event) => event.type === 'model_completed');
    expect(completed).toMatchObject({ inputTokens: 30, cachedInputTokens: 16 });
    expect(run.usage).toMatchObject({ inputTokens: 30, cachedInputTokens: 16 });
    expect(run.cacheHitRatio).toBeCloseTo(16 / 30, 10);
  });
});
