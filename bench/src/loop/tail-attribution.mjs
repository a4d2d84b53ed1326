// Where workload 1d's tail and its gc() penalty come from (issue 35), run by run. The same protocol
// as workload 1d (fresh-harness-workload.mjs: tiny with events, tiny with `recordEvents: false`, the
// AI SDK and the hand-rolled floor (system-floor.mjs, a new run per request) in alternation, 20
// warm-ups then N timed runs, without and with `gc()` before each run), and for every timed run: the
// wall clock; the main thread's CPU time and its time spent runnable but waiting for a CPU (Linux
// schedstat, updated at context switches and ticks: read means, not percentiles); the CPU time of
// all the process's threads (`process.cpuUsage`: V8's concurrent compiler and collector included),
// its system share and minor page faults; and the collections that started inside the run
// (PerformanceObserver `gc` entries: scavenges and mark-compacts, their count and wall duration).
// Per series it prints mean, median and p90 (p90 ÷ median) of the wall clock, main-thread and
// all-thread CPU, p90 ÷ median of the runs no collection landed in, and how the slowest tenth of
// runs (wall) splits into CPU, run-queue wait and collection pauses against the middle fifth.
//
//   node --expose-gc src/loop/tail-attribution.mjs [--runs 150] [--warmups 20] [--only tiny,floor]
// V8 flags go before the script (`--single-threaded-gc`, `--no-concurrent-sweeping`, `--no-opt`,
// `--min-semi-space-size=…`, …) to attribute a share to one engine mechanism; with
// `--import ./src/loop/use-builds.mjs` and TINY_BENCH_BUILDS it measures another build.
import { readFileSync } from 'node:fs';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { distribution } from './fresh-harness-workload.mjs';
import { createAiSdkFresh, createTinyFresh } from './fresh-systems.mjs';
import { createFloorRun } from './system-floor.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};
const runs = Number(option('--runs', 150));
const warmups = Number(option('--warmups', 20));
const only = option('--only', undefined);
const TURNS = 50;
const CALLS = 4;
const calls = TURNS * CALLS;

const schedstat = `/proc/${process.pid}/task/${process.pid}/schedstat`;
/** [on-CPU µs, runnable-but-waiting µs] of the main thread. */
const sched = () => {
  const [cpu, wait] = readFileSync(schedstat, 'utf8').split(' ');
  return [Number(cpu) / 1000, Number(wait) / 1000];
};

const gcEntries = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcEntries.push(entry);
});
observer.observe({ entryTypes: ['gc'] });

const allSystems = [
  ['tiny', () => createTinyFresh(TURNS, CALLS)],
  ['tiny-events-off', () => createTinyFresh(TURNS, CALLS, { recordEvents: false })],
  ['ai-sdk', () => createAiSdkFresh(TURNS, CALLS)],
  ['floor', () => ({ run: createFloorRun(TURNS, CALLS) })],
];
const systems = only === undefined ? allSystems : allSystems.filter(([id]) => only.split(',').includes(id));

async function one(build, collect) {
  const request = build();
  if (collect) globalThis.gc();
  const [cpu0, wait0] = sched();
  const process0 = process.cpuUsage();
  const faults0 = process.resourceUsage().minorPageFault;
  const started = performance.now();
  const outcome = await request.run();
  const ended = performance.now();
  const processUsed = process.cpuUsage(process0);
  const faults = process.resourceUsage().minorPageFault - faults0;
  const [cpu1, wait1] = sched();
  if (outcome.toolCalls !== calls) throw new Error(`expected ${calls} calls, got ${outcome.toolCalls}`);
  const wall = (ended - started) * 1000;
  const allThreads = processUsed.user + processUsed.system;
  return {
    started,
    ended,
    wall,
    cpu: cpu1 - cpu0,
    wait: wait1 - wait0,
    allThreads,
    system: processUsed.system,
    faults,
  };
}

/** Attaches the collections that started inside each run (µs of main-thread pause, counts by kind). */
function attachCollections(samples) {
  const sorted = [...gcEntries].sort((a, b) => a.startTime - b.startTime);
  for (const sample of samples) {
    sample.scavenges = 0;
    sample.markCompacts = 0;
    sample.gcPause = 0;
    for (const entry of sorted) {
      if (entry.startTime < sample.started || entry.startTime >= sample.ended) continue;
      const kind = entry.detail?.kind ?? entry.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) sample.scavenges++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL)
        sample.markCompacts++;
      sample.gcPause += entry.duration * 1000;
    }
  }
}

const fmt = (value) => (value / calls).toFixed(2).padStart(7);

function report(label, samples) {
  const wall = distribution(samples.map((s) => s.wall));
  const cpu = distribution(samples.map((s) => s.cpu));
  const wait = distribution(samples.map((s) => s.wait));
  const pause = distribution(samples.map((s) => s.gcPause));
  const allThreads = distribution(samples.map((s) => s.allThreads));
  const system = distribution(samples.map((s) => s.system));
  const faults = distribution(samples.map((s) => s.faults));
  const withScavenge = samples.filter((s) => s.scavenges > 0).length;
  const quiet = distribution(samples.filter((s) => s.scavenges === 0 && s.markCompacts === 0).map((s) => s.wall));
  const withMark = samples.filter((s) => s.markCompacts > 0).length;
  console.log(
    `${label.padEnd(30)} wall ${fmt(wall.mean)} ${fmt(wall.median)} ${fmt(wall.p90)} (${(wall.p90 / wall.median).toFixed(2)}×)` +
      `  cpu ${fmt(cpu.mean)} ${fmt(cpu.median)} ${fmt(cpu.p90)} (${(cpu.p90 / cpu.median).toFixed(2)}×)` +
      `  all threads ${fmt(allThreads.mean)} ${fmt(allThreads.median)}  (system ${fmt(system.mean)}, page faults per run ${faults.mean.toFixed(0)})  wait ${fmt(wait.mean)}  gc pause ${fmt(pause.mean)}  runs with scavenge ${withScavenge}, mark ${withMark}` +
      `  (runs with none: wall p90 ÷ median ${(quiet.p90 / quiet.median).toFixed(2)}×)`,
  );
  // The slowest tenth by wall clock against the middle fifth: what the extra time is made of.
  const byWall = [...samples].sort((a, b) => a.wall - b.wall);
  const tail = byWall.slice(Math.floor(byWall.length * 0.9));
  const middle = byWall.slice(Math.floor(byWall.length * 0.4), Math.ceil(byWall.length * 0.6));
  const mean = (list, key) => list.reduce((sum, s) => sum + s[key], 0) / list.length;
  const parts = ['wall', 'cpu', 'allThreads', 'wait', 'gcPause', 'scavenges'].map((key) => {
    const perCall = key === 'scavenges' ? 1 : calls;
    return `${key} ${(mean(middle, key) / perCall).toFixed(2)} → ${(mean(tail, key) / perCall).toFixed(2)}`;
  });
  console.log(`${''.padEnd(30)} middle fifth → slowest tenth: ${parts.join(', ')}`);
}

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const flags = process.execArgv.filter((flag) => flag !== '--expose-gc').join(' ') || 'default flags';
console.log(
  `tail attribution, ${flags}; ${runs} runs after ${warmups} warm-ups; µs per call: mean median p90 (p90 ÷ median)`,
);
for (const collect of [false, true]) {
  for (let i = 0; i < warmups; i++) for (const [, build] of systems) await one(build, false);
  const samples = systems.map(() => []);
  for (let i = 0; i < runs; i++)
    for (let index = 0; index < systems.length; index++) samples[index].push(await one(systems[index][1], collect));
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const list of samples) attachCollections(list);
  gcEntries.length = 0;
  for (let index = 0; index < systems.length; index++)
    report(`${collect ? 'gc() before' : 'no gc'}: ${systems[index][0]}`, samples[index]);
}
observer.disconnect();
