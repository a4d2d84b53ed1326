import { defineConfig } from 'tsup';

// `src/cli.ts` starts with a hashbang, which esbuild keeps: `dist/cli.js` is the `tiny-trace` bin.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
