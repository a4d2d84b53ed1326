// Ledger overhead benchmark: the harness loop-overhead scenario (a model answering instantly with
// K calls of a trivial tool per turn) run without a ledger, with the in-memory ledger, and with the
// SQLite ledger on a temp file (and on tmpfs, when there is one, to separate fsync from the rest).
// Reports µs per tool call and the overhead against the run without a ledger.
// Run: pnpm --filter @tiny/ledger-sqlite bench   (after pnpm build)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentHarness, InMemoryToolEffectLedger } from '@tiny/harness';
import { createModelProfile } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { SqliteToolEffectLedger } from '../dist/index.js';

const CALLS_PER_TURN = 4;

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
function instantModel(turns) {
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
      for (let k = 0; k < CALLS_PER_TURN; k++) {
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

async function runOnce(turns, ledger) {
  const harness = new AgentHarness({
    model: instantModel(turns),
    tools: [add],
    limits: { maxModelCalls: turns + 2, maxToolCalls: turns * CALLS_PER_TURN + 1 },
    ...(ledger === undefined ? {} : { ledger }),
  });
  const started = process.hrtime.bigint();
  const run = await harness.invoke({}, [{ role: 'user', content: 'add things' }], { recordEvents: false });
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  if (run.toolCalls !== turns * CALLS_PER_TURN) throw new Error('wrong number of tool calls');
  return elapsedUs;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Warms every configuration up, then runs them round-robin (so JIT state and disk noise fall on all
 * alike) and keeps each one's median.
 */
async function measureAll(configs, rounds) {
  for (const [, options] of configs) for (let i = 0; i < 5; i++) await runOnce(options.turns, options.ledger);
  const samples = configs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, [, options]] of configs.entries()) {
      samples[index].push((await runOnce(options.turns, options.ledger)) / (options.turns * CALLS_PER_TURN));
    }
  }
  return configs.map(([label, options], index) => ({ label, turns: options.turns, perCallUs: median(samples[index]) }));
}

const disk = mkdtempSync(join(tmpdir(), 'tiny-ledger-bench-'));
const shm = existsSync('/dev/shm') ? mkdtempSync(join('/dev/shm', 'tiny-ledger-bench-')) : undefined;
const sqlite = (dir, options = {}) => new SqliteToolEffectLedger({ path: join(dir, 'ledger.db'), ...options });

const noopLedger = { started: async () => {}, settled: async () => {}, unresolved: async () => [] };
const configs = [
  ['no ledger', { turns: 50 }],
  // Only the harness's side of the ledger: idempotency key, awaits, bookkeeping.
  ['no-op ledger (harness side only)', { turns: 50, ledger: noopLedger }],
  ['InMemoryToolEffectLedger', { turns: 50, ledger: new InMemoryToolEffectLedger() }],
  ['SQLite, temp file (fsync per started)', { turns: 10, ledger: sqlite(disk) }],
  ['SQLite, temp file, durableSettled', { turns: 10, ledger: sqlite(disk, { durableSettled: true }) }],
];
if (shm !== undefined) configs.push(['SQLite, tmpfs (fsync is free)', { turns: 50, ledger: sqlite(shm) }]);

let results;
try {
  results = await measureAll(configs, 21);
} finally {
  for (const [, { ledger }] of configs) await ledger?.close?.();
  rmSync(disk, { recursive: true, force: true });
  if (shm !== undefined) rmSync(shm, { recursive: true, force: true });
}

const baseline = results[0].perCallUs;
console.log(
  `ledger overhead per tool call (median of 21 interleaved rounds, ${CALLS_PER_TURN} calls per turn, events off)`,
);
for (const result of results) {
  const extra = result.perCallUs - baseline;
  console.log(
    `${result.label.padEnd(40)} ${result.perCallUs.toFixed(1).padStart(9)} µs/call  ${(extra >= 0 ? '+' : '') + extra.toFixed(1).padStart(8)} µs  ${(result.perCallUs / baseline).toFixed(2).padStart(7)}x`,
  );
}
console.log(JSON.stringify({ baselineUs: baseline, results }));
