import { runParsing } from './parsing/parsing-workload.mjs';

const t = Date.now();
const r = runParsing({ smoke: process.argv[2] === 's' });
for (const row of r.rows)
  console.log(
    row.workload.padEnd(18),
    String(row.bytes).padEnd(8),
    row.id.padEnd(24),
    row.mbPerSecond.median.toFixed(2),
    row.mbPerSecond.min.toFixed(2),
    row.mbPerSecond.max.toFixed(2),
    row.mbPerSecond.samples,
  );
console.log(Date.now() - t, 'ms');
