// Throughput of parseToolCalls next to JSON.parse on the same byte count, 1 KB -> 1 MB scaling,
// and pathological inputs that would make a backtracking or rescanning parser blow up.
// Run from packages/llm: npx vitest bench --run bench/parse.bench.ts
// MB/s = hz * size / 1e6 (sizes are in the group names). A self-timed MB/s table and the
// pathological timings are also printed once when the file loads.
import { bench, describe } from 'vitest';
import { pathologicalInputs, pathologicalTools, repeatTo } from '../src/parse/__fixtures__/pathological-inputs.js';
import { createStreamScrubber } from '../src/parse/create-stream-scrubber.js';
import { parseToolCalls } from '../src/parse/parse-tool-calls.js';

const prose =
  'The quarterly report shows revenue grew 12% while costs stayed flat; see https://example.com/q3 for details. ' +
  'Next steps: (1) review the forecast, (2) update the model [draft], and (3) email the team. ';

function call(index: number): string {
  return `<tool_call>\n{"name": "get_weather", "arguments": {"city": "City ${index}", "days": ${index % 7}, "units": "metric"}}\n</tool_call>\n`;
}

/** Inputs of exactly `size` characters for each class. */
function inputs(size: number): Record<string, string> {
  let calls = '';
  for (let index = 0; calls.length < size; index++) calls += (index % 4 === 0 ? 'Checking. ' : '') + call(index);
  const depth = Math.max(1, Math.floor((size - 60) / 6));
  const nested = `<tool_call>{"name":"deep","arguments":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}</tool_call>`;
  const mixed = repeatTo(
    'Sure. <invoke name="read"><parameter name="path">a.txt</parameter></invoke>\n' +
      '<｜tool▁call▁begin｜>lookup<｜tool▁sep｜>{"id": 7}<｜tool▁call▁end｜>\n' +
      '<|channel|>commentary to=functions.ls<|message|>{"path":"/"}<|call|>\n' +
      '[TOOL_CALLS]get_weather[ARGS]{"city":"Paris"}\n',
    size,
  );
  return {
    'clean text': repeatTo(prose, size),
    'call-heavy text': calls.slice(0, size),
    'adversarial nesting': nested.length > size ? nested.slice(0, size) : nested,
    'mixed grammars': mixed,
  };
}

/** A JSON document of about `size` bytes: the call objects of the call-heavy class. */
function jsonOfSize(size: number): string {
  const items: string[] = [];
  let length = 2;
  for (let index = 0; length < size; index++) {
    const item = JSON.stringify({
      name: 'get_weather',
      arguments: { city: `City ${index}`, days: index % 7, units: 'metric' },
    });
    items.push(item);
    length += item.length + 1;
  }
  return `[${items.join(',')}]`;
}

const sizes = [
  ['1 KB', 1_000],
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
] as const;

/** Runs `run` for `minimumMs` to warm the JIT up, then counts runs for another `minimumMs`. */
function opsPerSecond(run: () => void, minimumMs: number): number {
  const warm = performance.now();
  while (performance.now() - warm < minimumMs) run();
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    run();
    count++;
    elapsed = performance.now() - start;
  } while (elapsed < minimumMs);
  return (count * 1000) / elapsed;
}

function summary(): void {
  const rows: string[] = ['size     class                  parse MB/s  JSON.parse MB/s  ratio'];
  for (const [label, size] of sizes) {
    const json = jsonOfSize(size);
    const jsonRate = (opsPerSecond(() => JSON.parse(json), 300) * json.length) / 1e6;
    for (const [name, text] of Object.entries(inputs(size))) {
      const rate = (opsPerSecond(() => parseToolCalls(text), 300) * text.length) / 1e6;
      rows.push(
        `${label.padEnd(8)} ${name.padEnd(22)} ${rate.toFixed(1).padStart(10)}  ${jsonRate.toFixed(1).padStart(15)}  ${(rate / jsonRate).toFixed(2)}`,
      );
    }
  }
  rows.push('', 'pathological input (100 KB)                    parse ms  stream ms (64-char fragments)');
  for (const [name, make] of pathologicalInputs) {
    const text = make(100_000);
    let start = performance.now();
    parseToolCalls(text, { tools: pathologicalTools });
    const parseMs = performance.now() - start;
    start = performance.now();
    const scrubber = createStreamScrubber({ tools: pathologicalTools });
    for (let index = 0; index < text.length; index += 64) scrubber.feed(text.slice(index, index + 64));
    scrubber.flush();
    const streamMs = performance.now() - start;
    rows.push(`${name.padEnd(46)} ${parseMs.toFixed(1).padStart(8)}  ${streamMs.toFixed(1).padStart(9)}`);
  }
  console.log(rows.join('\n'));
}

summary();

for (const [label, size] of sizes) {
  const json = jsonOfSize(size);
  describe(`${label} (${size} chars; JSON baseline ${json.length} chars)`, () => {
    bench('JSON.parse (same byte count)', () => {
      JSON.parse(json);
    });
    for (const [name, text] of Object.entries(inputs(size))) {
      bench(`parseToolCalls: ${name}`, () => {
        parseToolCalls(text);
      });
    }
  });
}

describe('pathological inputs, 100 KB each (must finish well under a second)', () => {
  for (const [name, make] of pathologicalInputs) {
    const text = make(100_000);
    bench(
      name,
      () => {
        parseToolCalls(text, { tools: pathologicalTools });
      },
      { iterations: 3, time: 0 },
    );
  }
});
