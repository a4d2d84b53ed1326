import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SEQUENTIAL = Number(process.env.SOAK_RUNS ?? 10_000);
const CONCURRENT = Number(process.env.SOAK_CONCURRENT ?? 1_000);

const add = defineTool({
  name: 'add',
  description: 'Add.',
  parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }),
  policy: ToolPolicy.readOnly(),
  isConcurrencySafe: () => true,
  execute: async ({ a, b }) => String(a + b),
});

function harness() {
  const model = new ScriptedModel({
    recordRequests: false,
    steps: [
      { toolCalls: [scriptedToolCall('add', { a: 1, b: 2 }), scriptedToolCall('add', { a: 3, b: 4 })] },
      { content: 'done' },
    ],
  });
  return new AgentHarness({ model, tools: [add] });
}

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};

/** Least-squares slope of heap bytes over run index. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const numerator = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const denominator = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return numerator / denominator;
}

let rejections = 0;
const onRejection = () => {
  rejections += 1;
};
beforeAll(() => process.on('unhandledRejection', onRejection));
afterAll(() => process.off('unhandledRejection', onRejection));

const resources = () => process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap' && kind !== 'PipeWrap');

describe('soak', () => {
  it(`runs ${SEQUENTIAL} sequential runs with a flat heap, no leaked timers and no unhandled rejections`, async () => {
    expect(gc, 'run with --expose-gc').toBeDefined();
    const before = resources();
    const samples: [number, number][] = [];
    let finished = 0;
    const warmUp = Math.floor(SEQUENTIAL / 10);
    for (let run = 1; run <= SEQUENTIAL; run += 1) {
      const result = await harness().invoke({}, [{ role: 'user', content: 'add' }], { recordEvents: run % 2 === 0 });
      if (result.text === 'done') finished += 1;
      if (run > warmUp && run % warmUp === 0) samples.push([run, heap()]);
    }
    expect(finished).toBe(SEQUENTIAL);
    const bytesPerRun = slope(samples);
    console.log(`sequential soak: heap slope ${bytesPerRun.toFixed(2)} bytes/run over ${SEQUENTIAL} runs`);
    // Retaining one message per run (a few hundred bytes) would exceed this; noise stays well under it.
    expect(bytesPerRun).toBeLessThan(100);
    expect(resources()).toEqual(before);
    expect(rejections).toBe(0);
  });

  it(`runs ${CONCURRENT} runs at bounded concurrency without leaks`, async () => {
    const before = resources();
    const start = heap();
    let next = 0;
    const worker = async () => {
      while (next < CONCURRENT) {
        next += 1;
        const result = await harness().invoke({}, [{ role: 'user', content: 'add' }]);
        expect(result.toolCalls).toBe(2);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const grown = heap() - start;
    console.log(`concurrent soak: heap grew ${(grown / 1024).toFixed(1)} KiB after ${CONCURRENT} runs`);
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    expect(resources()).toEqual(before);
    expect(rejections).toBe(0);
  });
});
