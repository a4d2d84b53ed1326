#!/usr/bin/env node
// `pnpm demo`: builds the quickstart and what it depends on without printing the build (its full
// output is shown only when the build fails), then runs the demo.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
process.stdout.write('building the quickstart (quiet; the build log is shown if it fails)... ');
const build = spawnSync(
  'pnpm',
  [
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@tiny/example-quickstart...',
    '--output-logs=errors-only',
    '--log-prefix=none',
  ],
  { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, maxBuffer: 64 * 1024 * 1024 },
);
if (build.status !== 0) {
  process.stdout.write('failed\n\n');
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}${build.error ? `${build.error.message}\n` : ''}`);
  process.exit(build.status ?? 1);
}
process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`);
const demo = spawnSync(process.execPath, [join(root, 'examples/quickstart/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(demo.status ?? 1);
