import { describe, expect, it } from 'vitest';
import { pathologicalInputs, pathologicalTools } from './__fixtures__/pathological-inputs.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';

function fastest(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 4; round++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

function stream(text: string): void {
  const scrubber = createStreamScrubber({ tools: pathologicalTools });
  for (let index = 0; index < text.length; index += 64) scrubber.feed(text.slice(index, index + 64));
  scrubber.flush();
}

// Ten times the input must cost far less than a hundred times the time (quadratic); the floor
// keeps timer noise on tiny durations from failing the check.
const FLOOR_MS = 25;
const MAX_GROWTH = 40;

describe('time grows linearly on pathological inputs', () => {
  it.each(pathologicalInputs.map(([name, make]) => [name, make] as const))('%s', (_name, make) => {
    const small = make(20_000);
    const large = make(200_000);
    for (const run of [(text: string) => parseToolCalls(text, { tools: pathologicalTools }), stream]) {
      run(small);
      const smallMs = fastest(() => run(small));
      const largeMs = fastest(() => run(large));
      expect(largeMs).toBeLessThan(1000);
      expect(largeMs).toBeLessThan(Math.max(FLOOR_MS, smallMs * MAX_GROWTH));
    }
  });
});
