import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One module graph per worker, not per test file (see packages/llm/vitest.config.ts).
    isolate: false,
    testTimeout: 30_000,
    include: ['src/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
