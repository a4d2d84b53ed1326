// What a `gc()` before each run costs, and where (issue 35): workload 1d's fresh-harness request
// (tiny, events recorded) and the AI SDK's, in alternation, timed by the wall clock and by the main
// thread's CPU time (thread-cpu.mjs), in three ways: no `gc()`; a `gc()` right before the timer
// starts; a `gc()`, then a 100 ms pause (the collector's concurrent sweeping done) before the timer.
// Run it once more with `--single-threaded-gc` to see the sweeping done on the main thread instead.
//
//   node --expose-gc src/loop/gc-penalty.mjs [--runs 100] [--warmups 20]
import { setTimeout as sleep } from 'node:timers/promises';
import { nowUs } from '../stats.mjs';
import { distribution } from './fresh-harness-workload.mjs';
import { createAiSdkFresh, createTinyFresh } from './fresh-systems.mjs';
import { mainThreadCpuUs } from './thread-cpu.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const runs = option('--runs', 100);
const warmups = option('--warmups', 20);
const TURNS = 50;
const CALLS = 4;
const calls = TURNS * CALLS;

const systems = [
  ['tiny', () => createTinyFresh(TURNS, CALLS)],
  ['ai-sdk', () => createAiSdkFresh(TURNS, CALLS)],
];

async function one(build, mode) {
  const request = build();
  if (mode !== 'no gc') globalThis.gc();
  if (mode === 'gc, 100 ms pause') await sleep(100);
  const cpu = mainThreadCpuUs();
  const started = nowUs();
  const outcome = await request.run();
  const wall = nowUs() - started;
  const cpuUsed = cpu === undefined ? Number.NaN : mainThreadCpuUs() - cpu;
  if (outcome.toolCalls !== calls) throw new Error(`expected ${calls} calls, got ${outcome.toolCalls}`);
  return { wall: wall / calls, cpu: cpuUsed / calls };
}

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const flags = process.execArgv.filter((flag) => flag !== '--expose-gc').join(' ') || 'default flags';
console.log(`gc() penalty, ${flags}: µs per call, mean (median) of ${runs} runs after ${warmups} warm-ups`);
console.log('mode                     system   wall mean (median)   main-thread CPU mean (median)');
for (const mode of ['no gc', 'gc', 'gc, 100 ms pause']) {
  for (let i = 0; i < warmups; i++) for (const [, build] of systems) await one(build, 'no gc');
  const samples = systems.map(() => ({ wall: [], cpu: [] }));
  for (let i = 0; i < runs; i++) {
    for (const [index, [, build]] of systems.entries()) {
      const { wall, cpu } = await one(build, mode);
      samples[index].wall.push(wall);
      samples[index].cpu.push(cpu);
    }
  }
  for (const [index, [id]] of systems.entries()) {
    const wall = distribution(samples[index].wall);
    const cpu = distribution(samples[index].cpu);
    console.log(
      `${mode.padEnd(24)} ${id.padEnd(8)} ${wall.mean.toFixed(1).padStart(9)} (${wall.median.toFixed(1)})` +
        `${cpu.mean.toFixed(1).padStart(18)} (${cpu.median.toFixed(1)})`,
    );
  }
}
