import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A net for a hung test, not a speed check: property tests are sized by a run count, and every
    // test must finish well inside this on a 2-core machine at load 8 (another heavy process beside it).
    // One module graph per worker, not per test file: the tests do not rely on fresh module state
    // (a file that mocks a module loads what uses it afresh), and re-evaluating every import per file
    // was half of the suite's CPU.
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    include: ['src/**/*.test.ts'],
    exclude: ['src/**/*.e2e.test.ts', '**/node_modules/**'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
