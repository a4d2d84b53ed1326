/**
 * Live tests against the Anthropic API or a local server speaking the Messages API, outside `pnpm test`:
 *
 *   ANTHROPIC_API_KEY=sk-ant-... pnpm --filter @tiny/provider-anthropic test:e2e
 *   ANTHROPIC_BASE_URL=http://127.0.0.1:8080/v1 ANTHROPIC_MODEL=qwen3 pnpm --filter @tiny/provider-anthropic test:e2e
 *
 * Skipped unless ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set. Runs the standard conformance
 * suite in live mode.
 */
import { describeConformance } from '@tiny/provider-tests';
import { describe, it } from 'vitest';
import { anthropic } from './presets/anthropic.js';

const apiKey = process.env.ANTHROPIC_API_KEY;
const baseURL = process.env.ANTHROPIC_BASE_URL;
const modelId = process.env.ANTHROPIC_MODEL ?? 'claude-haiku-4-5';

if (apiKey === undefined && baseURL === undefined) {
  describe.skip('live endpoint (set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL to run)', () => {
    it('needs ANTHROPIC_API_KEY', () => {});
  });
} else {
  const provider = anthropic({ apiKey, baseURL, name: 'live' });
  describeConformance({
    name: `${modelId} at ${provider.baseURL}`,
    mode: 'live',
    secret: apiKey,
    model: () => provider(modelId),
    skip: { prompt_guided: "the Messages API takes native tools; text dialects are the harness's job" },
  });
}
