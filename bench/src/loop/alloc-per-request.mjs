// Bytes allocated per fresh-harness request (issue 35): after a full collection the young
// generation is empty and one request (about 2 MiB) fits in it, so the heap's growth over that one
// request is what it allocated (no scavenge runs in between: check with --trace-gc). The median
// of 21 requests, after 200 warm-ups.
//   node --expose-gc --max-semi-space-size=64 src/loop/alloc-per-request.mjs
// Deterministic enough (unlike wall-clock time on a shared machine) to check that a cut allocates less.
import { createTinyFresh } from './fresh-systems.mjs';

for (let i = 0; i < 200; i++) await createTinyFresh(50, 4).run();
const rows = [];
for (let sample = 0; sample < 21; sample++) {
  const request = createTinyFresh(50, 4);
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  await request.run();
  rows.push(process.memoryUsage().heapUsed - before);
}
rows.sort((a, b) => a - b);
const median = rows[10];
console.log(
  `allocated per request: ${(median / 1024).toFixed(1)} KiB (${(median / 200).toFixed(0)} B per call; ` +
    `min ${(rows[0] / 1024).toFixed(1)}, max ${(rows[20] / 1024).toFixed(1)} KiB)`,
);
