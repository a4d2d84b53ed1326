import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One module graph per worker, not per test file: the tests do not rely on fresh module state
    // (a file that mocks a module loads what uses it afresh), and re-evaluating every import per file
    // was half of the suite's CPU.
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    include: ['src/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
