import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CorpusCase, toolsOf } from './__fixtures__/load-corpus.js';
import { parseToolCalls } from './parse-tool-calls.js';

// Held-out real outputs: transcribed from public parser suites after the grammars were written and
// never tuned against. A case hits when the calls (names, arguments, invalid markers) are exactly
// the expected ones: nothing invented, nothing lost. The floor guards the measured rate. Set 1
// (38 cases) measured 86.8 % first; set 2 (32: Qwen3-Coder, Step3, OLMo 3) measured 31.3 % before
// its fixes and set 3 (9: MiniMax M2, Granite 4) 100 %. Set 4 (35, PARSE-3: FunctionGemma, Ling /
// Ring, MiniCPM 5 and Command R+ from Ollama's model/parsers tests, a source not read while writing
// those grammars) measured 100 % once, at the end, untuned; all 114 read 98.2 % now.
const directory = new URL('./__fixtures__/held-out/', import.meta.url);
const cases = readdirSync(directory)
  .filter((file) => file.endsWith('.json'))
  .flatMap((file) => JSON.parse(readFileSync(new URL(file, directory), 'utf8')) as CorpusCase[]);

function hits(entry: CorpusCase): boolean {
  const result = parseToolCalls(entry.input, { tools: toolsOf(entry) });
  const actual = result.calls.map((call) => ({
    name: call.name,
    arguments: call.arguments,
    ...(call.invalid === undefined ? {} : { invalid: true }),
  }));
  const expected = JSON.stringify(entry.expected.calls.map((call) => ({ ...call })));
  if (JSON.stringify(actual) === expected) return true;
  // Issue 33's counting rule: a call the source refuses (drops) counts as refused when it reaches
  // admission as an `invalid` call, which never runs (a bad pythonic sibling, since PARSE-3).
  return JSON.stringify(actual.filter((call) => call.invalid === undefined)) === expected;
}

describe('held-out real outputs', () => {
  it('reads at least the measured share exactly', () => {
    const misses = cases.filter((entry) => !hits(entry)).map((entry) => entry.id);
    const rate = (cases.length - misses.length) / cases.length;
    console.info(
      `held-out hit rate ${(rate * 100).toFixed(1)} % (${cases.length - misses.length}/${cases.length}); misses: ${misses.join(', ')}`,
    );
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(rate).toBeGreaterThanOrEqual(0.97);
  });
});
