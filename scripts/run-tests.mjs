#!/usr/bin/env node
// The test stage of `pnpm test:all`, quiet: the scripts' own tests (node --test), every package's
// vitest suite (turbo, three at a time) and the reliability suite. A passing step prints nothing but
// its counts; a failing one prints its log (turbo prints only the failing packages' logs). It ends
// with one line per package and the closing line `N passed, N failed[, N skipped]`, and exits 1 when
// anything failed or a step broke without reporting.
//
//   node scripts/run-tests.mjs                          # everything
//   node scripts/run-tests.mjs --filter @tiny/llm       # extra turbo arguments (a filter skips reliability)
//   node scripts/run-tests.mjs --force --only  # CI's Node 24 lane (scripts/ci-node24.sh)
//
// Counts come from vitest's JSON reporter (`.vitest-report.json` in each package, git-ignored) and
// from the TAP summary of node's test runner.
//
// Vitest's own typecheck (the `typecheck` block of the packages' configs, which runs `tsc --noEmit`
// over the whole package when it has `*.test-d.ts` files) is off here: `pnpm typecheck` checks the same
// `src`, tests and type tests included (with tsgo), before this in `pnpm test:all`, and type errors do not depend on the Node
// version of the Node 24 lane. `npx vitest run` in a package still checks its type tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = '.vitest-report.json';
const turboArgs = process.argv.slice(2);
const scratch = mkdtempSync(join(tmpdir(), 'tiny-tests-'));

/** Workspace package directories: packages/*, examples/*, bench, reliability. */
const packageDirs = () =>
  ['packages', 'examples']
    .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
    .concat([join(root, 'bench'), join(root, 'reliability')])
    .filter((dir) => existsSync(join(dir, 'package.json')));
const nameOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;

/** Runs a command with its output in a log file; prints the log when it fails. */
function step(label, command, args, options = {}) {
  const log = join(scratch, `${label.replace(/\W+/g, '-')}.log`);
  const result = spawnSync('bash', ['-c', `"$0" "$@" >${JSON.stringify(log)} 2>&1`, command, ...args], {
    cwd: options.cwd ?? root,
    stdio: 'inherit',
  });
  const output = existsSync(log) ? readFileSync(log, 'utf8') : '';
  if (result.status !== 0 || options.alwaysShow) process.stdout.write(output);
  if (result.status !== 0) console.error(`tests: ${label} exited ${result.status}`);
  return { ok: result.status === 0, output };
}

const rows = [];
const broken = [];
const vitestArgs = [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${REPORT}`,
  '--silent=passed-only',
  '--typecheck.enabled=false',
];

for (const dir of packageDirs()) rmSync(join(dir, REPORT), { force: true });

// 1. The scripts' own tests (checkers of layers and release plans).
const scripts = readdirSync(join(root, 'scripts'))
  .filter((file) => file.endsWith('.test.mjs'))
  .map((file) => join('scripts', file));
const nodeTests = step('scripts', process.execPath, ['--test', '--test-reporter=tap', ...scripts]);
const tapCount = (key) => Number(nodeTests.output.match(new RegExp(`^# ${key} (\\d+)$`, 'm'))?.[1] ?? 0);
rows.push({
  name: 'scripts (node --test)',
  passed: tapCount('pass'),
  failed: tapCount('fail'),
  skipped: tapCount('skipped'),
});
if (!nodeTests.ok && tapCount('fail') === 0) broken.push('scripts');

// 2. Every package's vitest suite through turbo; only failing packages' logs are printed, and a
//    failing package does not stop the others (--continue), so the counts cover every package.
const turbo = spawnSync(
  'pnpm',
  [
    'exec',
    'turbo',
    'run',
    'test',
    '--concurrency=3',
    '--continue',
    '--output-logs=errors-only',
    ...turboArgs.filter((arg) => arg !== '--continue'),
    '--',
    ...vitestArgs,
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
);
// turbo's own lines: keep its failures and its summary, drop the per-task banner noise.
const turboLines = turbo.stdout.split('\n').filter((line) => line.trim() !== '');
process.stdout.write(
  turbo.status === 0
    ? `${turboLines.filter((line) => /^\s*(Tasks|Cached|Time):/.test(line)).join('\n')}\n`
    : turbo.stdout,
);

// 3. The reliability suite (fuzzers, crash and resume), unless a filter narrowed the run. It keeps
//    vitest's default of one file per spare core: some of its files bound how long the host may pause
//    (code-mode's hostile programs, the hostile server's hang limit), and a second file beside them on
//    CI's two cores made those bounds flaky under load.
if (!turboArgs.some((arg) => arg === '-F' || arg.startsWith('--filter'))) {
  step('reliability', 'pnpm', ['exec', 'vitest', 'run', ...vitestArgs], { cwd: join(root, 'reliability') });
}

for (const dir of packageDirs()) {
  const file = join(dir, REPORT);
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const failedSuites = (report.testResults ?? []).filter(
    (suite) => suite.status === 'failed' && suite.assertionResults?.length === 0,
  ).length;
  rows.push({
    name: nameOf(dir),
    passed: report.numPassedTests,
    failed: report.numFailedTests + failedSuites,
    skipped: report.numPendingTests + report.numTodoTests,
  });
}
if (turbo.status !== 0 && !rows.some((row) => row.failed > 0)) broken.push('turbo test');
rmSync(scratch, { recursive: true, force: true });

const width = Math.max(...rows.map((row) => row.name.length));
for (const row of rows) {
  const skipped = row.skipped ? `, ${row.skipped} skipped` : '';
  console.log(`  ${row.name.padEnd(width)}  ${row.passed} passed, ${row.failed} failed${skipped}`);
}
if (broken.length > 0) console.log(`tests: ${broken.join(', ')} failed without a test failing (see above)`);
const sum = (key) => rows.reduce((total, row) => total + row[key], 0);
const failed = sum('failed') + broken.length;
const skipped = sum('skipped');
console.log(`${sum('passed')} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || turbo.status !== 0 ? 1 : 0);
