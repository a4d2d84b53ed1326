import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Examples run whole agents (and servers): a net for a hung test, sized for a 2-core machine at load 8.
// Screenshots attached to the tests (`annotate`) are copied to a scratch folder, not into the repo.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    attachmentsDir: join(tmpdir(), 'tiny-web-chat-attachments'),
  },
});
