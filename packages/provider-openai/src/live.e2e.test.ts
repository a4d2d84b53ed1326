/**
 * Live tests against a real OpenAI-compatible endpoint, outside `pnpm test`:
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=qwen3:4b pnpm --filter @tiny/provider-openai test:e2e
 *   OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=sk-... pnpm --filter @tiny/provider-openai test:e2e
 *
 * Skipped unless OPENAI_BASE_URL is set. Runs the standard conformance suite in live mode and the
 * quickstart demo (built with `pnpm --filter @tiny/example-quickstart build`) against the endpoint.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeConformance } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';

const baseURL = process.env.OPENAI_BASE_URL;
const apiKey = process.env.OPENAI_API_KEY;
const modelId = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';
const demo = fileURLToPath(new URL('../../../examples/quickstart/dist/main.js', import.meta.url));

if (baseURL === undefined) {
  describe.skip('live endpoint (set OPENAI_BASE_URL to run)', () => {
    it('needs OPENAI_BASE_URL', () => {});
  });
} else {
  const provider = createOpenAICompatible({ baseURL, apiKey, name: 'live' });
  describeConformance({
    name: `${modelId} at ${baseURL}`,
    mode: 'live',
    secret: apiKey,
    model: (testCase) =>
      testCase === 'prompt_guided' ? provider(modelId, { profile: { toolCalling: false } }) : provider(modelId),
  });

  describe.skipIf(!existsSync(demo))('the quickstart demo against the live endpoint', () => {
    it('runs the agent to a final answer without sending the host secret', async () => {
      const { stdout } = await promisify(execFile)(process.execPath, [demo], { env: process.env, timeout: 170_000 });
      expect(stdout).toContain('final answer:');
      expect(stdout).toContain('secret sent to the model: never');
    }, 180_000);
  });
}
