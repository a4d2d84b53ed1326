import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A net for a hung test, not a speed check: property tests are sized by a run count, and every
    // test must finish well inside this on a 2-core machine at load 8 (another heavy process beside it).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    include: ['src/**/*.test.ts'],
    exclude: ['src/**/*.e2e.test.ts', '**/node_modules/**'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
