// Workload 1d (issue 35): the loop as users run it. T turns × K calls of `add(a, b)` declared with
// raw JSON Schema, `execute: async`, a scripted model answering from pre-built responses. Per
// run: build the harness (or the AI SDK's model), then time one request, construction outside
// the timer. Warm-ups, then timed runs with tiny and the AI SDK in alternation (so load on a shared
// machine falls on both alike), once without and once with `gc()` before each run. Reported as
// the mean, median, p10 and p90 of µs per tool call: the mean includes the runs a collection
// lands in, the p90 shows the tail. A second series reuses one harness (the shape workload 1
// measures), with the async tool and with a sync one.
import { nowUs } from '../stats.mjs';
import { createAiSdkFresh, createTinyFresh } from './fresh-systems.mjs';

/** Mean, median, p10 and p90 of `values`. */
export function distribution(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => {
    const position = (sorted.length - 1) * q;
    const low = Math.floor(position);
    const high = Math.ceil(position);
    return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
  };
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { mean, median: at(0.5), p10: at(0.1), p90: at(0.9), samples: sorted.length };
}

async function timeOne(request, calls, collect) {
  if (collect) globalThis.gc?.();
  const started = nowUs();
  const outcome = await request.run();
  const elapsed = nowUs() - started;
  if (outcome.toolCalls !== calls) throw new Error(`expected ${calls} tool calls, got ${outcome.toolCalls}`);
  return elapsed / calls;
}

/** Runs `builders` (each returns a request with `run()`) in alternation: warm-ups, then timed runs. */
async function alternate(builders, calls, { warmups, runs, collect }) {
  for (let i = 0; i < warmups; i++) for (const build of builders) await timeOne(build(), calls, false);
  const values = builders.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let index = 0; index < builders.length; index++) {
      const request = builders[index]();
      values[index].push(await timeOne(request, calls, collect));
    }
  }
  return values.map(distribution);
}

/**
 * The fresh-harness series (tiny with events recorded, tiny with `recordEvents: false`, the AI
 * SDK with a `jsonSchema()` tool) without and with a GC before each run, and the reused-harness
 * series (async and sync tool), all µs per tool call.
 */
export async function runFreshHarness({ turns = 50, callsPerTurn = 4, warmups = 20, runs = 150 } = {}) {
  const calls = turns * callsPerTurn;
  const builders = [
    () => createTinyFresh(turns, callsPerTurn),
    () => createTinyFresh(turns, callsPerTurn, { recordEvents: false }),
    () => createAiSdkFresh(turns, callsPerTurn),
  ];
  const ids = ['tiny', 'tiny-events-off', 'ai-sdk-json-schema'];
  const series = {};
  for (const collect of [false, true]) {
    const stats = await alternate(builders, calls, { warmups, runs, collect });
    series[collect ? 'gcBeforeEachRun' : 'noGc'] = Object.fromEntries(ids.map((id, index) => [id, stats[index]]));
  }
  // One harness per tool kind, reused for every run (the scripted model replays its script).
  const reused = {
    async: createTinyFresh(turns, callsPerTurn),
    sync: createTinyFresh(turns, callsPerTurn, { sync: true }),
  };
  const reusedStats = await alternate([() => reused.async, () => reused.sync], calls, {
    warmups,
    runs,
    collect: false,
  });
  series.reused = { async: reusedStats[0], sync: reusedStats[1] };
  return { turns, callsPerTurn, warmups, runs, ...series };
}
