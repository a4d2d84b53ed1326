import { defineConfig } from 'vitest/config';

// Examples run whole agents (and servers): a net for a hung test, sized for a 2-core machine at load 8.
export default defineConfig({ test: { include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } });
