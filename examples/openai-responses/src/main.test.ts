import { loadReplayFixture, startReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { main, USAGE } from './main.js';

describe('examples/openai-responses', () => {
  it('prints how to run it without an endpoint', async () => {
    expect(await main({})).toBe(USAGE);
  });

  it('runs the agent against a /v1/responses server (recorded traffic replayed on 127.0.0.1)', async () => {
    const server = await startReplayServer(
      loadReplayFixture(new URL('./__fixtures__/local-run.json', import.meta.url)),
    );
    try {
      const output = await main({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_MODEL: 'gpt-5.1-codex-max' });
      expect(output.match(/tool calculator ran/g)).toHaveLength(3);
      expect(output).toContain('final answer: The final result is **570**.');
      expect(output).toContain('outcome: final, tools run: calculator, calculator, calculator');
      server.assertDone();
    } finally {
      await server.close();
    }
  });
});
