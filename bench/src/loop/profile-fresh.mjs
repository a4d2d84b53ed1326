// Profiling driver for the fresh-harness async path (issue 35), not part of `pnpm bench`:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof src/loop/profile-fresh.mjs [runs] [tiny|ai-sdk]
//   node --trace-gc src/loop/profile-fresh.mjs 200
// Builds a harness and performs one 50 × 4 request, `runs` times.
import { createAiSdkFresh, createTinyFresh } from './fresh-systems.mjs';

const runs = Number(process.argv[2] ?? 2000);
const build = process.argv[3] === 'ai-sdk' ? createAiSdkFresh : createTinyFresh;
const started = performance.now();
for (let i = 0; i < runs; i++) await build(50, 4).run();
console.error(`${runs} runs: ${(((performance.now() - started) * 1000) / runs / 200).toFixed(2)} µs per call`);
