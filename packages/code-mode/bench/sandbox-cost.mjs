// What a sandbox costs: an empty program on a cold and a warm worker, a program after its
// predecessor was ended by the CPU watchdog, and host RSS around a program that tries to hold
// 2 GiB under the default 32 MiB limit. Run after `pnpm build`.
import { DEFAULT_CODE_MODE_LIMITS, runSandboxed } from '@tiny/code-mode';

const host = { names: [], call: async () => null };
const limits = { ...DEFAULT_CODE_MODE_LIMITS };
const MiB = 1024 * 1024;
const rss = () => Math.round(process.memoryUsage().rss / MiB);
const time = async (source, options = limits) => {
  const started = performance.now();
  await runSandboxed(source, host, options).catch(() => undefined);
  return performance.now() - started;
};
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

const cold = await time('return 1;');
const warm = [];
for (let i = 0; i < 40; i++) warm.push(await time('return 1;'));
const afterStop = [];
for (let i = 0; i < 10; i++) {
  await time('for (;;) Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1);', { ...limits, cpuTimeMs: 50 });
  afterStop.push(await time('return 1;'));
}
console.log(`empty program: cold ${cold.toFixed(1)} ms, warm median ${median(warm).toFixed(1)} ms`);
console.log(
  `empty program right after a watchdog stop: median ${median(afterStop).toFixed(1)} ms, max ${Math.max(...afterStop).toFixed(1)} ms`,
);

const before = rss();
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, rss());
}, 5);
const bomb =
  "const keep = []; for (let i = 0; i < 2048; i++) keep.push(new Uint8Array(1 << 20).fill(i), ('x'.repeat(1 << 10) + i).toUpperCase()); return keep.length;";
const outcome = await runSandboxed(bomb, host, { ...limits, cpuTimeMs: 60_000 }).then(
  () => 'finished (limit not enforced)',
  (error) => `${error.name}: ${error.message}`,
);
await new Promise((resolve) => setTimeout(resolve, 500));
clearInterval(sampler);
console.log(`2 GiB attempt under 32 MiB: ${outcome}`);
console.log(`host RSS: before ${before} MiB, peak ${peak} MiB, 0.5 s after ${rss()} MiB`);
