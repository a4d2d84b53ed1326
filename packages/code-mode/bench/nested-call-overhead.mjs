// Per-nested-call overhead of code mode: a program making N sequential calls of a trivial tool,
// against the same N calls made by a plain tool through `context.callTool` (harness admission
// alone), each run in a fresh harness run on the scripted model. Run after `pnpm build`.
import { codeModeTool } from '@tiny/code-mode';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';

const N = Number(process.env.N ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const inc = {
  name: 'inc',
  description: 'Adds one.',
  parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  execute: ({ n }) => n + 1,
};
const loop = {
  name: 'loop',
  description: 'Calls inc N times.',
  parameters: { type: 'object', properties: {} },
  nestedTools: [inc],
  execute: async (_args, context) => {
    let n = 0;
    for (let i = 0; i < N; i++) n = JSON.parse((await context.callTool('inc', { n })).output());
    return n;
  },
};

async function once(tool, args, calls) {
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall(tool.name, args, 'c1')] }, { content: 'ok' }],
    recordRequests: false,
  });
  const harness = new AgentHarness({ model, tools: [tool], limits: { maxToolCalls: calls + 10 } });
  const started = performance.now();
  const run = await harness.invoke({}, [{ role: 'user', content: 'go' }], { recordEvents: false });
  const elapsed = performance.now() - started;
  if (run.toolCalls !== calls + 1) throw new Error(`expected ${calls + 1} tool calls, got ${run.toolCalls}`);
  return elapsed;
}

const best = async (make) => {
  let min = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) min = Math.min(min, await make());
  return min;
};

const code = codeModeTool({ tools: [inc], limits: { maxNestedCalls: N, cpuTimeMs: 120_000 } });
const program = (count) => `let n = 0; for (let i = 0; i < ${count}; i++) n = await inc({ n }); return n;`;
await once(code, { code: program(10) }, 10);
const empty = await best(() => once(code, { code: program(0) }, 0));
const full = await best(() => once(code, { code: program(N) }, N));
const direct = await best(() => once(loop, {}, N));
const perCodeCall = ((full - empty) / N) * 1000;
const perDirectCall = (direct / N) * 1000;
console.log(`code mode: empty program ${empty.toFixed(1)} ms (sandbox start + run), ${N} calls ${full.toFixed(1)} ms`);
console.log(`per nested call from a program: ${perCodeCall.toFixed(1)} µs`);
console.log(`per nested call via context.callTool (admission only): ${perDirectCall.toFixed(1)} µs`);
console.log(`sandbox share per call: ${(perCodeCall - perDirectCall).toFixed(1)} µs`);
