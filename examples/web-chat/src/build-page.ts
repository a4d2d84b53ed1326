import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { defaultPublicDir, pageEntry } from './paths.js';

/**
 * The `ai` package that `@ai-sdk/react` itself imports (it pins one exact `ai` release). The page
 * imports a few helpers from `ai` too; aliasing them to that same copy puts one `ai` in the bundle.
 */
function aiOfReact(): string {
  const require = createRequire(import.meta.url);
  const react = createRequire(require.resolve('@ai-sdk/react'));
  return dirname(react.resolve('ai/package.json'));
}

/** What {@link buildPage} wrote. */
export interface PageBuild {
  readonly outdir: string;
  /** Bytes per written file (`app.js`, `app.css`). */
  readonly files: Readonly<Record<string, number>>;
}

/**
 * Bundles the chat page (React, `@ai-sdk/react`, the page's CSS) with esbuild into `outdir`:
 * `app.js` and `app.css`, minified, for current browsers. Offline: everything comes from
 * node_modules, nothing is fetched.
 */
export async function buildPage(outdir: string = defaultPublicDir): Promise<PageBuild> {
  const result = await build({
    entryPoints: { app: pageEntry },
    outdir,
    bundle: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari17'],
    platform: 'browser',
    jsx: 'automatic',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { ai: aiOfReact() },
    metafile: true,
    logLevel: 'warning',
  });
  const files: Record<string, number> = {};
  for (const [path, output] of Object.entries(result.metafile.outputs)) {
    files[path.slice(path.lastIndexOf('/') + 1)] = output.bytes;
  }
  return { outdir, files };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { outdir, files } = await buildPage();
  const sizes = Object.entries(files).map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)} KiB`);
  console.log(`page: ${sizes.join(', ')} in ${outdir} (${Math.round(performance.now() - started)} ms)`);
}
