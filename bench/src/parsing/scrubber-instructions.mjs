// Instruction counts for workload 3b (the stream scrubber at 1- and 64-character feeds), for runs
// under `valgrind --tool=callgrind`, where wall-clock figures on a shared machine are noise. One run
// scrubs the same input `repeats` times after a warm-up; the difference of two runs of different
// `repeats`, divided by the extra bytes, is the cost per byte without start-up and compilation.
//
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//     node --predictable --predictable-gc-schedule --expose-gc \
//     src/parsing/scrubber-instructions.mjs <clean|call-heavy> <size> <repeats> [module]
//
// `module` is the path of a build of @tiny/llm to measure (default: the package as installed). The
// collector runs at both ends of the measured rounds; even so, a difference over 8 rounds varied by
// up to 2x between identical runs here: take it over 30 rounds or more (e.g. 10 and 42).
import { addToolSchema, toolCallText } from './parsing-inputs.mjs';

const [input = 'clean', size = '1', repeats = '10', modulePath] = process.argv.slice(2);
const { createStreamScrubber } = await import(modulePath ?? '@tiny/llm');
const bytes = 20_000;
const tools = [addToolSchema];

function cleanText(length) {
  let text = '';
  for (let i = 0; text.length < length; i++) text += `Sentence ${i} of plain prose, with commas and numbers ${i * 7}. `;
  return text.slice(0, length);
}

const text = input === 'clean' ? cleanText(bytes) : toolCallText(bytes).text;
const fragments = [];
for (let at = 0; at < text.length; at += Number(size)) fragments.push(text.slice(at, at + Number(size)));

function scrub() {
  const scrubber = createStreamScrubber({ tools });
  let calls = 0;
  for (const fragment of fragments) calls += scrubber.feed(fragment).calls.length;
  return calls + scrubber.flush().calls.length;
}

let calls = 0;
for (let round = 0; round < 20; round++) calls += scrub();
globalThis.gc?.();
for (let round = 0; round < Number(repeats); round++) calls += scrub();
globalThis.gc?.();
console.log(JSON.stringify({ input, size: Number(size), repeats: Number(repeats), bytes: text.length, calls }));
