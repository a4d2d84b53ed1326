// Instructions per fresh-harness request (issue 35), counted by `valgrind --tool=callgrind`: on a
// shared, loaded machine wall-clock times are noise, instruction counts are not.
//
//   pnpm --filter @tiny/bench bench:instructions [--runs 15] [--warmups 5] [--no-gc | --gc-only]
//     [--gc-floor]  (only the collection: one request, then a gc() per counted request)
//     [--builds <dir>]  (@tiny/harness and @tiny/tools from <dir>/packages/*/dist, see use-builds.mjs)
//     [--single-threaded]  (node --single-threaded: compilation and collection on the main thread, not
//       on concurrent threads whose timing varies from run to run)
//
// Warm-ups: with the default 5, most of what is counted is the JIT still compiling (TurboFan was
// 61 of 91 M instructions per request between requests 5 and 20; `runLoop` alone is optimised
// again around request 60). For the per-call cost use `--warmups 60 --runs 20 --single-threaded`,
// and read compilation apart (bench/README.md, issue 35, third session).
//
// The workload is workload 1d's tiny series: T = 50 turns × K = 4 calls of the async JSON Schema
// `add` tool, a new `AgentHarness` per request (its construction is counted, as a serverless
// handler pays it). Each count runs two child processes under callgrind, one doing
// `warmups` requests and one doing `warmups + runs`; the difference divided by `runs` is the cost of
// one warmed-up request, with process start-up, module loading and warm-up compilation cancelled
// out. With `gc`, a full `gc()` precedes each request in both children, and the collection is counted.
// The child (`--child <requests> <gc|nogc>`) is this file run under valgrind.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TURNS = 50;
const CALLS_PER_TURN = 4;

async function child(requests, collect, floor) {
  const { createTinyFresh } = await import('./fresh-systems.mjs');
  if (floor) {
    // The collection alone: one request, then a `gc()` per counted request.
    await createTinyFresh(TURNS, CALLS_PER_TURN).run();
    for (let i = 0; i < requests; i++) globalThis.gc();
    return;
  }
  for (let i = 0; i < requests; i++) {
    if (collect) globalThis.gc();
    const outcome = await createTinyFresh(TURNS, CALLS_PER_TURN).run();
    if (outcome.toolCalls !== TURNS * CALLS_PER_TURN)
      throw new Error(`expected 200 tool calls, got ${outcome.toolCalls}`);
  }
}

/** Total instructions of one child process under callgrind (every thread). */
function countInstructions(requests, collect, builds, floor = false) {
  const dir = mkdtempSync(join(tmpdir(), 'tiny-callgrind-'));
  try {
    const result = spawnSync(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
        process.execPath,
        '--expose-gc',
        ...(process.argv.includes('--single-threaded') ? ['--single-threaded'] : []),
        '--import',
        fileURLToPath(new URL('./use-builds.mjs', import.meta.url)),
        fileURLToPath(import.meta.url),
        '--child',
        String(requests),
        floor ? 'floor' : collect ? 'gc' : 'nogc',
      ],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, TINY_BENCH_BUILDS: builds ?? '' },
      },
    );
    if (result.error !== undefined) throw result.error;
    if (result.status !== 0) throw new Error(`callgrind child failed (${result.status}):\n${result.stderr}`);
    const match = /Collected\s*:\s*(\d+)/.exec(result.stderr);
    if (match === null) throw new Error(`no instruction count in callgrind's output:\n${result.stderr}`);
    return Number(match[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

async function main() {
  if (process.argv[2] === '--child') {
    await child(Number(process.argv[3]), process.argv[4] === 'gc', process.argv[4] === 'floor');
    return;
  }
  const warmups = option('--warmups', 5);
  const runs = option('--runs', 15);
  const buildsAt = process.argv.indexOf('--builds');
  const builds = buildsAt === -1 ? undefined : process.argv[buildsAt + 1];
  const modes = process.argv.includes('--no-gc')
    ? [false]
    : process.argv.includes('--gc-only')
      ? [true]
      : [false, true];
  if (process.argv.includes('--gc-floor')) {
    const base = countInstructions(warmups, true, builds, true);
    const total = countInstructions(warmups + runs, true, builds, true);
    console.log(`${builds ?? 'workspace'}: one gc() alone: ${((total - base) / runs / 1e6).toFixed(1)} M instructions`);
    return;
  }
  for (const collect of modes) {
    const base = countInstructions(warmups, collect, builds);
    const total = countInstructions(warmups + runs, collect, builds);
    const perRequest = (total - base) / runs;
    console.log(
      `${builds === undefined ? '' : `${builds}: `}${collect ? 'gc() before each request' : 'no gc()'}: ${(perRequest / 1e6).toFixed(1)} M instructions per request ` +
        `(${(perRequest / (TURNS * CALLS_PER_TURN) / 1e3).toFixed(1)} k per call; ${warmups} warm-ups, ${runs} counted; ` +
        `children ${(base / 1e6).toFixed(0)} M and ${(total / 1e6).toFixed(0)} M)`,
    );
  }
}

await main();
