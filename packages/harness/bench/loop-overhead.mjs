// Harness overhead benchmark: a model that answers instantly with K calls of a trivial tool for T
// turns, then a final answer. Time spent is the harness's own (model and tool cost ~nothing).
// Run: pnpm --filter @tiny/harness bench   (after pnpm build)
import { createModelProfile } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { AgentHarness } from '../dist/index.js';

const add = defineTool({
  name: 'add',
  description: 'Add two integers.',
  parameters: {
    type: 'object',
    required: ['a', 'b'],
    additionalProperties: false,
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
  },
  isConcurrencySafe: () => true,
  execute: ({ a, b }) => String(a + b),
});

/** A model that replays prebuilt responses: no recording, no per-call allocation beyond ids. */
function instantModel(turns, callsPerTurn) {
  let call = 0;
  const usage = { inputTokens: 1, outputTokens: 1 };
  return {
    specificationVersion: 'v1',
    provider: 'bench',
    modelId: 'instant',
    profile: createModelProfile(),
    async doGenerate() {
      const turn = call++;
      if (turn >= turns) return { content: 'done', toolCalls: [], finishReason: 'stop', usage, warnings: [] };
      const toolCalls = [];
      for (let k = 0; k < callsPerTurn; k++) {
        toolCalls.push({
          id: `t${turn}c${k}`,
          name: 'add',
          arguments: { a: turn, b: k },
          rawArguments: '{"a":1,"b":2}',
        });
      }
      return { content: '', toolCalls, finishReason: 'tool_calls', usage, warnings: [] };
    },
    doStream() {
      throw new Error('not used');
    },
  };
}

async function runOnce(turns, callsPerTurn, options) {
  const harness = new AgentHarness({
    model: instantModel(turns, callsPerTurn),
    tools: [add],
    limits: { maxModelCalls: turns + 2, maxToolCalls: turns * callsPerTurn + 1 },
  });
  const started = process.hrtime.bigint();
  const run = await harness.invoke({}, [{ role: 'user', content: 'add things' }], options);
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  if (run.toolCalls !== turns * callsPerTurn) throw new Error('wrong number of tool calls');
  return elapsedUs;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function measure(label, turns, callsPerTurn, options, repeats = 15) {
  for (let i = 0; i < 3; i++) await runOnce(turns, callsPerTurn, options);
  const samples = [];
  for (let i = 0; i < repeats; i++) samples.push(await runOnce(turns, callsPerTurn, options));
  const total = median(samples);
  const perCall = total / (turns * callsPerTurn);
  const perTurn = total / turns;
  console.log(
    `${label.padEnd(44)} ${perCall.toFixed(2).padStart(8)} µs/call ${perTurn.toFixed(1).padStart(9)} µs/turn`,
  );
  return { label, turns, callsPerTurn, perCallUs: perCall, perTurnUs: perTurn };
}

const results = [];
console.log('harness overhead (median of 15 runs, K=4 calls per turn)');
results.push(await measure('50 turns, events off (no listener, no record)', 50, 4, { recordEvents: false }));
results.push(await measure('50 turns, events recorded', 50, 4, {}));
results.push(await measure('50 turns, listener + recorded', 50, 4, { onEvent: () => {} }));
results.push(await measure('10 turns, events off', 10, 4, { recordEvents: false }));
results.push(await measure('200 turns, events off', 200, 4, { recordEvents: false }));
const flat = results[4].perCallUs / results[3].perCallUs;
console.log(`growth per call from 10 to 200 turns: ${flat.toFixed(2)}x (1.00 = flat)`);

global.gc?.();
const before = process.memoryUsage();
const longRun = await runOnce(2000, 4, { recordEvents: false });
const after = process.memoryUsage();
const maxRssMiB = process.resourceUsage().maxRSS / 1024;
console.log(
  `2,000-turn run: ${(longRun / 1000).toFixed(0)} ms, ${(longRun / 8000).toFixed(2)} µs/call, peak RSS ${maxRssMiB.toFixed(1)} MiB, heap ${(after.heapUsed / 2 ** 20).toFixed(1)} MiB (was ${(before.heapUsed / 2 ** 20).toFixed(1)})`,
);
console.log(JSON.stringify({ results, flat, longRunUs: longRun, maxRssMiB }));
