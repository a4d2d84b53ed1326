// Interleaved A/B of builds of @tiny/llm on workload 3b's inputs, in one process, timed by the
// process's CPU time (user + system) rather than the wall clock, which other work on a shared
// machine stretches. Each round scrubs the input 5 times with each build in turn; prints the median
// and least ns per byte of 31 rounds.
//
//   node src/parsing/scrubber-ab.mjs <clean|call-heavy> <size> <module> [module...]
//
// A `module` is the path of a build, e.g. one bundled from a checkout with esbuild:
//   esbuild packages/llm/src/index.ts --bundle --format=esm --platform=node --outfile=/tmp/a.mjs
import { addToolSchema, toolCallText } from './parsing-inputs.mjs';

const [input = 'clean', size = '1', ...modules] = process.argv.slice(2);
const tools = [addToolSchema];

function cleanText(length) {
  let text = '';
  for (let i = 0; text.length < length; i++) text += `Sentence ${i} of plain prose, with commas and numbers ${i * 7}. `;
  return text.slice(0, length);
}

const text = input === 'clean' ? cleanText(20_000) : toolCallText(20_000).text;
const fragments = [];
for (let at = 0; at < text.length; at += Number(size)) fragments.push(text.slice(at, at + Number(size)));
const builds = await Promise.all(modules.map((path) => import(path)));

function scrub(build) {
  const scrubber = build.createStreamScrubber({ tools });
  let calls = 0;
  for (const fragment of fragments) calls += scrubber.feed(fragment).calls.length;
  return calls + scrubber.flush().calls.length;
}

for (const build of builds) for (let round = 0; round < 30; round++) scrub(build);
const samples = builds.map(() => []);
for (let round = 0; round < 31; round++) {
  builds.forEach((build, index) => {
    const started = process.cpuUsage();
    for (let repeat = 0; repeat < 5; repeat++) scrub(build);
    const used = process.cpuUsage(started);
    samples[index].push(((used.user + used.system) * 1000) / 5 / text.length);
  });
}
modules.forEach((path, index) => {
  const sorted = samples[index].sort((a, b) => a - b);
  console.log(`${path} ${input} ${size}: median ${sorted[15].toFixed(1)} ns/byte, least ${sorted[0].toFixed(1)}`);
});
