// Child process for one system's memory figures: `node --expose-gc memory-child.mjs <id> <turns>`.
// The parent is memory-workload.mjs.
// Loads the system, warms it up with a short run, collects garbage, then does one long run and
// prints one JSON line with RSS and heap before and after (MiB) and the peak RSS of the process
// (and, for ours and the floor, the warm time of the same run repeated).
import { writeSync } from 'node:fs';
import { nowUs } from '../stats.mjs';
import { onTurn } from './own-clock.mjs';
import { loopSystem } from './systems.mjs';

const [id, turnsText, callsText = '4'] = process.argv.slice(2);
const turns = Number(turnsText);
const callsPerTurn = Number(callsText);
const system = loopSystem(id);
const MiB = 2 ** 20;

await system.create(5, callsPerTurn)();
globalThis.gc?.();
const before = process.memoryUsage();
const peakBefore = process.resourceUsage().maxRSS / 1024;
writeSync(2, `baseline ${JSON.stringify({ rssMiB: before.rss / MiB, heapUsedMiB: before.heapUsed / MiB })}\n`);
const run = system.create(turns, callsPerTurn);
const started = nowUs();
// A peer may not finish in the parent's time cap (or run out of heap): every 50 turns, write a
// progress line synchronously (the loop may never yield to the event loop) for the parent to keep.
onTurn((turn) => {
  if (turn % 50 !== 0) return;
  const usage = process.memoryUsage();
  const line = {
    turn,
    elapsedMs: (nowUs() - started) / 1000,
    rssMiB: usage.rss / MiB,
    heapUsedMiB: usage.heapUsed / MiB,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  writeSync(2, `progress ${JSON.stringify(line)}\n`);
});
const outcome = await run();
onTurn(undefined);
const elapsedUs = nowUs() - started;
const after = process.memoryUsage();
const peakRssMiB = process.resourceUsage().maxRSS / 1024;
if (outcome.toolCalls !== turns * callsPerTurn) throw new Error(`${id}: ${outcome.toolCalls} tool calls`);
globalThis.gc?.();
const retained = process.memoryUsage();
// Keep the run's result reachable until after the retained-heap reading.
if (outcome.result === undefined) throw new Error('no result');
// The run above is the process's first long run, so its time includes the JIT's warm-up. For
// ours and the floor, the same run is repeated to give the warm figure alongside (median of 5).
let warmElapsedMs;
if (id.startsWith('tiny') || id === 'floor') {
  const samples = [];
  for (let round = 0; round < 5; round += 1) {
    const again = system.create(turns, callsPerTurn);
    const roundStarted = nowUs();
    await again();
    samples.push((nowUs() - roundStarted) / 1000);
  }
  warmElapsedMs = samples.sort((a, b) => a - b)[2];
}
console.log(
  JSON.stringify({
    id,
    turns,
    callsPerTurn,
    elapsedMs: elapsedUs / 1000,
    warmElapsedMs,
    rssBeforeMiB: before.rss / MiB,
    peakRssBeforeMiB: peakBefore,
    peakRssMiB,
    peakRssGrowthMiB: peakRssMiB - before.rss / MiB,
    heapBeforeMiB: before.heapUsed / MiB,
    heapAfterMiB: after.heapUsed / MiB,
    heapRetainedMiB: retained.heapUsed / MiB,
  }),
);
