import { defineConfig } from 'vitest/config';

// Examples run whole agents (and servers); a loaded CI machine needs more than vitest's 5 s default.
export default defineConfig({ test: { include: ['src/**/*.test.ts'], testTimeout: 30_000 } });
