import { defineConfig } from 'vitest/config';

/** Live tests against a real endpoint: `ANTHROPIC_API_KEY=... pnpm test:e2e`. Skipped without it. */
export default defineConfig({
  test: { include: ['src/**/*.e2e.test.ts'], testTimeout: 180_000 },
});
