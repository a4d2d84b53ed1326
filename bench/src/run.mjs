// Side-by-side benchmarks: tiny against the Vercel AI SDK, LangChain JS and OpenAI Agents JS.
//   pnpm bench                     (root: turbo builds the workspace packages first)
//   node --expose-gc src/run.mjs [--smoke] [--only loop,fresh,memory,cold,validation,parsing,scrubber,structured]
// Prints tables of ratios (ours ÷ peer) with medians [min–max], and writes the raw figures to
// results/latest.json (smoke.json with --smoke, which checks no targets; partial.json with --only).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runColdStart } from './loop/cold-start-workload.mjs';
import { runFreshHarness } from './loop/fresh-harness-workload.mjs';
import { runLoopOverhead } from './loop/loop-workload.mjs';
import { runMemory } from './loop/memory-workload.mjs';
import { loopSystem, loopSystems } from './loop/systems.mjs';
import { runParsing } from './parsing/parsing-workload.mjs';
import { runScrubber } from './parsing/scrubber-workload.mjs';
import { evaluateTargets, renderReport } from './report.mjs';
import { runStructuredStreaming } from './structured-slot.mjs';
import { runValidation } from './validation/validation-workload.mjs';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1].split(',')) : undefined;
const enabled = (name) => only === undefined || only.has(name);
const started = Date.now();
const log = (message) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);

const packageDir = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const versionOf = (name) => JSON.parse(readFileSync(`${packageDir}/node_modules/${name}/package.json`, 'utf8')).version;
const peers = [
  'ai',
  'langchain',
  '@langchain/core',
  '@langchain/langgraph',
  '@openai/agents-core',
  'zod',
  'ajv',
  '@sinclair/typebox',
  'jsonrepair',
];

const results = {
  meta: {
    date: new Date().toISOString(),
    smoke,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model,
    cpus: cpus().length,
    versions: Object.fromEntries(peers.map((name) => [name, versionOf(name)])),
  },
};

if (!globalThis.gc) log('warning: run with --expose-gc for steadier figures');

if (enabled('loop')) {
  log('workload 1: agent-loop overhead');
  const turnCounts = smoke ? [10, 50] : [10, 50, 200];
  const plan = smoke
    ? () => ({ warmups: 1, rounds: 2, minRounds: 1, budgetMs: 0 })
    : (turns) =>
        turns <= 10
          ? { warmups: 5, rounds: 21, budgetMs: 5000 }
          : turns <= 50
            ? { warmups: 3, rounds: 15, budgetMs: 12000 }
            : { warmups: 1, rounds: 7, budgetMs: 15000 };
  results.loop = await runLoopOverhead(loopSystems, { turnCounts, callsPerTurn: 4, plan });
}

if (enabled('fresh')) {
  log('workload 1d: a fresh harness per request, async JSON Schema tool, with and without gc() before each run');
  results.fresh = await runFreshHarness(
    smoke ? { turns: 10, warmups: 2, runs: 5 } : { turns: 50, warmups: 20, runs: 150 },
  );
}

if (enabled('memory')) {
  const turns = smoke ? 50 : 2000;
  const callsPerTurn = 1;
  const capMs = smoke ? 20000 : 60000;
  log(
    `workload 1b: ${turns}-turn × ${callsPerTurn}-call run per system in child processes (cap ${capMs / 1000}s each)`,
  );
  // Slowest peers first so the two lanes finish close together.
  const order = [
    'openai-agents',
    'ai-sdk',
    'langchain-agent',
    'langgraph-toolnode',
    'tiny',
    'tiny-events-off',
    'tiny-async-fresh',
    'floor',
  ];
  const systems = order.map(loopSystem);
  results.memory = { turns, callsPerTurn, capMs, rows: await runMemory(systems, { turns, capMs, callsPerTurn }) };
}

if (enabled('cold')) {
  log('workload 1c: cold start to the first completed tool call, child processes');
  results.coldStart = runColdStart({ samples: smoke ? 1 : 7 });
}

if (enabled('validation')) {
  log('workload 2: argument validation and tool registration');
  results.validation = await runValidation({ smoke });
}

if (enabled('parsing')) {
  log('workload 3: tool-call parsing and repair');
  results.parsing = await runParsing({ smoke });
}

if (enabled('scrubber')) {
  log('workload 3b: the stream scrubber fed 1 and 64 characters at a time');
  results.scrubber = await runScrubber({ smoke });
}

if (enabled('structured')) {
  log('workload 4: streaming partial structured output');
  results.structured = await runStructuredStreaming({ smoke });
}

results.meta.elapsedSeconds = (Date.now() - started) / 1000;
results.targets = smoke || only ? [] : evaluateTargets(results);
console.log(renderReport(results));

mkdirSync(`${packageDir}/results`, { recursive: true });
const outFile = `${packageDir}/results/${only ? 'partial' : smoke ? 'smoke' : 'latest'}.json`;
writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
log(`raw figures written to ${outFile}`);
