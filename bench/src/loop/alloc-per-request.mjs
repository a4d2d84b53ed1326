// Bytes allocated per fresh-harness request (issue 35): with a young generation large enough that
// no collection runs, the heap's growth over a few warmed-up requests is what they allocated.
//   node --expose-gc --max-semi-space-size=512 src/loop/alloc-per-request.mjs [requests]
// Deterministic (unlike wall-clock time on a shared machine): a quick check that a cut allocates less.
import { createTinyFresh } from './fresh-systems.mjs';

const requests = Number(process.argv[2] ?? 10);
for (let i = 0; i < 200; i++) await createTinyFresh(50, 4).run();
const rows = [];
for (let sample = 0; sample < 5; sample++) {
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < requests; i++) await createTinyFresh(50, 4).run();
  rows.push((process.memoryUsage().heapUsed - before) / requests);
}
rows.sort((a, b) => a - b);
console.log(
  `allocated per request: ${(rows[2] / 1024).toFixed(1)} KiB (${(rows[2] / 200).toFixed(0)} B per call; min ${(rows[0] / 1024).toFixed(1)}, max ${(rows[4] / 1024).toFixed(1)} KiB)`,
);
