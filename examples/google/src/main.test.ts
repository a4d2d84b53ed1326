import { loadReplayFixture, startReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { main, USAGE } from './main.js';

describe('examples/google', () => {
  it('prints how to run it without an endpoint', async () => {
    expect(await main({})).toBe(USAGE);
  });

  it('runs the agent against the Gemini API (replayed on 127.0.0.1), replaying the call signature', async () => {
    const server = await startReplayServer(
      loadReplayFixture(new URL('./__fixtures__/gemini-run.json', import.meta.url)),
    );
    try {
      const output = await main({ GEMINI_API_KEY: 'AIza-example-key', GEMINI_BASE_URL: `${server.url}/v1beta` });
      expect(output).toContain('tool weather ran (');
      expect(output).toContain('final answer: Wear a warm coat and boots');
      expect(output).toContain('outcome: final, tools run: weather');
      server.assertDone();
    } finally {
      await server.close();
    }
  });
});
