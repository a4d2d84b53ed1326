// Where a fresh-harness request allocates (issue 35): V8's sampling heap profiler, keeping the
// samples of objects already collected, over warmed-up requests; bytes by allocating function.
//   node src/loop/alloc-profile.mjs [requests] [top]
import { Session } from 'node:inspector/promises';
import { createTinyFresh } from './fresh-systems.mjs';

const requests = Number(process.argv[2] ?? 100);
const top = Number(process.argv[3] ?? 30);
for (let i = 0; i < 200; i++) await createTinyFresh(50, 4).run();
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < requests; i++) await createTinyFresh(50, 4).run();
const { profile } = await session.post('HeapProfiler.stopSampling');
const bytes = new Map();
let total = 0;
const walk = (node) => {
  const frame = node.callFrame;
  const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-3).join('/')}:${frame.lineNumber + 1}`;
  const size = node.selfSize;
  total += size;
  bytes.set(key, (bytes.get(key) ?? 0) + size);
  for (const child of node.children) walk(child);
};
walk(profile.head);
console.log(`sampled ${(total / requests / 1024).toFixed(1)} KiB per request`);
for (const [key, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(
    `${((size / total) * 100).toFixed(1).padStart(5)}%  ${(size / requests / 200).toFixed(0).padStart(5)} B/call  ${key}`,
  );
