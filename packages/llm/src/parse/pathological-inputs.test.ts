import { describe, expect, it } from 'vitest';
import { pathologicalInputs, pathologicalTools } from './__fixtures__/pathological-inputs.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';

// Timing lives in bench/parse.bench.ts (linear scaling, 100 KB pathological inputs). Here the
// pathological inputs only have to terminate with a well-formed result, the same whole or streamed.
describe('pathological inputs terminate with well-formed results', () => {
  it.each(pathologicalInputs.map(([name, make]) => [name, make] as const))('%s', (_name, make) => {
    const text = make(200_000);
    const parsed = parseToolCalls(text, { tools: pathologicalTools });
    expect(typeof parsed.text).toBe('string');
    expect(Array.isArray(parsed.calls)).toBe(true);
    const scrubber = createStreamScrubber({ tools: pathologicalTools });
    const calls = [];
    for (let index = 0; index < text.length; index += 64)
      calls.push(...scrubber.feed(text.slice(index, index + 64)).calls);
    calls.push(...scrubber.flush().calls);
    expect(calls).toEqual(parsed.calls);
  });
});
