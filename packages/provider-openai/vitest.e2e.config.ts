import { defineConfig } from 'vitest/config';

/** Live tests against a real endpoint: `OPENAI_BASE_URL=... pnpm test:e2e`. Skipped without it. */
export default defineConfig({
  test: { include: ['src/**/*.e2e.test.ts'], testTimeout: 180_000 },
});
