// Cost of the stream scrubber per byte by fragment size: local servers stream one token (1-4
// characters) per event, hosted APIs larger deltas. Target: with 1-character feeds at most 2x the
// cost per byte of 64-character feeds, on every class. Run from packages/llm:
//   npx vitest bench --run bench/stream-scrubber.bench.ts
// A self-timed table (µs per byte at 1/4/64-character feeds, best of 7, 10 KB each) is printed once
// when the file loads; the vitest benches below time the same feeds.
import { bench, describe } from 'vitest';
import { pathologicalTools, repeatTo } from '../src/parse/__fixtures__/pathological-inputs.js';
import { createStreamScrubber } from '../src/parse/create-stream-scrubber.js';
import type { ToolSchema } from '../src/spec/tool-schema.js';

const SIZE = 10_000;
const FEEDS = [1, 4, 64] as const;

const prose =
  'The quarterly report shows revenue grew 12% while costs stayed flat; see https://example.com/q3 for details. ' +
  'Next steps: (1) review the forecast, (2) update the model [draft], and (3) email the team. ';

function call(index: number): string {
  return `<tool_call>\n{"name": "get_weather", "arguments": {"city": "City ${index}", "days": ${index % 7}, "units": "metric"}}\n</tool_call>\n`;
}

function classes(size: number): Record<string, string> {
  let calls = '';
  for (let index = 0; calls.length < size; index++) calls += (index % 4 === 0 ? 'Checking. ' : '') + call(index);
  return {
    'clean text': repeatTo(prose, size),
    'call-heavy text': calls.slice(0, size),
    'mixed grammars': repeatTo(
      'Sure. <invoke name="read"><parameter name="path">a.txt</parameter></invoke>\n' +
        '<｜tool▁call▁begin｜>lookup<｜tool▁sep｜>{"id": 7}<｜tool▁call▁end｜>\n' +
        '<|channel|>commentary to=functions.ls<|message|>{"path":"/"}<|call|>\n' +
        '[TOOL_CALLS]get_weather[ARGS]{"city":"Paris"}\n',
      size,
    ),
    'code fences': repeatTo(
      'Here is the fix:\n```ts\nconst total = items.reduce((a, b) => a + b, 0);\n```\nDone. ',
      size,
    ),
    'one long call': `<tool_call>{"name":"get_weather","arguments":{"city":"${'a'.repeat(size - 70)}"}}</tool_call>`,
  };
}

/** Every grammar on (seed p-type and xml tools), and a plain tool list (no seed formats). */
const toolSets = { 'every grammar': pathologicalTools, 'plain tools': pathologicalTools.slice(2) } as const;

function feedAll(text: string, fragment: number, tools: ToolSchema[]): void {
  const scrubber = createStreamScrubber({ tools });
  for (let index = 0; index < text.length; index += fragment) scrubber.feed(text.slice(index, index + fragment));
  scrubber.flush();
}

function microsPerByte(text: string, fragment: number, tools: ToolSchema[]): number {
  feedAll(text, fragment, tools); // warm up
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    const start = performance.now();
    feedAll(text, fragment, tools);
    best = Math.min(best, performance.now() - start);
  }
  return (best * 1000) / text.length;
}

function summary(): void {
  const rows = [`stream scrubber, ${SIZE / 1000} KB, µs/byte at       1-char    4-char   64-char   1/64`];
  for (const [toolsName, tools] of Object.entries(toolSets))
    for (const [name, text] of Object.entries(classes(SIZE))) {
      const costs = FEEDS.map((fragment) => microsPerByte(text, fragment, tools));
      const [one, , sixtyFour] = costs as [number, number, number];
      rows.push(
        `${`${toolsName}: ${name}`.padEnd(36)} ${costs.map((cost) => cost.toFixed(3).padStart(9)).join(' ')}  ${(one / sixtyFour).toFixed(2).padStart(5)}x`,
      );
    }
  console.log(rows.join('\n'));
}

summary();

for (const [name, text] of Object.entries(classes(SIZE))) {
  describe(`stream scrubber: ${name} (${SIZE} chars)`, () => {
    for (const fragment of FEEDS) {
      bench(`${fragment}-char feeds`, () => feedAll(text, fragment, pathologicalTools), { time: 300 });
    }
  });
}
