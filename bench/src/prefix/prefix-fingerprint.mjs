// Issue 39: what fingerprinting the prompt prefix costs per model request, against the agent
// loop's own per-turn overhead. The loop (T=50 turns of K=4 calls of a trivial `add`, a scripted
// model, events recorded) fingerprints every request itself; here the same recorded request
// sequence goes through the run's prefix tracker (what the loop calls per request: fingerprint
// the new parts, compare with the previous request); each sample records a fresh run first
// (untimed), so every message object is new, as in the loop. The standalone
// `fingerprintPrefix` + `diffPrefix` (which rehash the whole history chain) are timed beside it.
// Target: the tracker under 5 % of the loop's per-turn overhead.
//   node --expose-gc src/prefix/prefix-fingerprint.mjs [--smoke]
import { writeFileSync } from 'node:fs';
import { AgentHarness, createPrefixTracker, diffPrefix, fingerprintPrefix } from '@tiny/harness';
import { createModelProfile } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { createTinyRun } from '../loop/system-tiny.mjs';
import { nowUs, summarize } from '../stats.mjs';

const smoke = process.argv.includes('--smoke');
const TURNS = 50;
const CALLS = 4;
const SAMPLES = smoke ? 5 : 150;
const WARMUPS = smoke ? 2 : 15;

/** The requests of one T×K run, as the model received them (messages copied per request). */
async function recordRequests() {
  const requests = [];
  let call = 0;
  const add = defineTool({
    name: 'add',
    description: 'Add two integers.',
    parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }, { additionalProperties: false }),
    isConcurrencySafe: () => true,
    execute: ({ a, b }) => String(a + b),
  });
  const usage = { inputTokens: 1, outputTokens: 1 };
  const model = {
    specificationVersion: 'v1',
    provider: 'bench',
    modelId: 'scripted',
    profile: createModelProfile(),
    async doGenerate(request) {
      requests.push({ tools: request.tools ?? [], messages: [...request.messages] });
      const turn = call++;
      if (turn >= TURNS) return { content: 'done', toolCalls: [], finishReason: 'stop', usage, warnings: [] };
      const toolCalls = Array.from({ length: CALLS }, (_, k) => ({
        id: `t${turn}c${k}`,
        name: 'add',
        arguments: { a: turn, b: k },
        rawArguments: '{}',
      }));
      return { content: '', toolCalls, finishReason: 'tool_calls', usage, warnings: [] };
    },
    doStream() {
      throw new Error('not used');
    },
  };
  await new AgentHarness({
    model,
    tools: [add],
    limits: { maxModelCalls: TURNS + 2, maxToolCalls: TURNS * CALLS + 1 },
  }).invoke({}, [{ role: 'user', content: 'add things' }]);
  return requests;
}

/** µs per request for the loop's tracker over a whole run's requests, from cold caches. */
function trackerCost(requests) {
  const tracker = createPrefixTracker();
  const started = nowUs();
  let breaks = 0;
  for (const request of requests) if (tracker.observe(request.tools, request.messages).broke !== undefined) breaks += 1;
  const us = nowUs() - started;
  if (breaks !== 0) throw new Error(`an append-only run showed ${breaks} prefix breaks`);
  return us / requests.length;
}

/** µs per request to fingerprint and compare each whole request standalone, from cold caches. */
function fingerprintCost(recorded) {
  // One structured clone keeps the sharing between requests (the history's messages are the same
  // objects turn after turn, as in the loop) but gives objects the hash cache has never seen.
  const requests = structuredClone(recorded);
  const started = nowUs();
  let previous;
  let breaks = 0;
  for (const request of requests) {
    const fingerprint = fingerprintPrefix(request.tools, request.messages);
    if (previous !== undefined && diffPrefix(previous, fingerprint) !== undefined) breaks += 1;
    previous = fingerprint;
  }
  const us = nowUs() - started;
  if (breaks !== 0) throw new Error(`an append-only run showed ${breaks} prefix breaks`);
  return us / requests.length;
}

/** µs of loop overhead per turn (run time minus model and tool bodies, over T+1 model calls). */
async function loopOverhead() {
  const run = createTinyRun(TURNS, CALLS)();
  const started = nowUs();
  const outcome = await run;
  return (nowUs() - started - outcome.ownUs) / (TURNS + 1);
}

const recorded = await recordRequests();
for (let i = 0; i < WARMUPS; i++) {
  trackerCost(await recordRequests());
  fingerprintCost(recorded);
  await loopOverhead();
}
const tracked = [];
const fingerprint = [];
const loop = [];
for (let i = 0; i < SAMPLES; i++) {
  globalThis.gc?.();
  // Alternate, so load on a shared machine falls on both alike.
  const fresh = await recordRequests();
  globalThis.gc?.();
  tracked.push(trackerCost(fresh));
  fingerprint.push(fingerprintCost(recorded));
  loop.push(await loopOverhead());
}
const perRequest = summarize(tracked);
const standalone = summarize(fingerprint);
const perTurn = summarize(loop);
const share = (100 * perRequest.median) / perTurn.median;
// The fastest tenth of each (the least disturbed by other load on a shared machine).
const p10 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 10)];
const shareP10 = (100 * p10(tracked)) / p10(loop);
const row = {
  workload: `prefix fingerprint, T=${TURNS} K=${CALLS}`,
  fingerprintUsPerRequest: perRequest,
  standaloneUsPerRequest: standalone,
  loopOverheadUsPerTurn: perTurn,
  sharePercent: share,
  sharePercentP10: shareP10,
  target: '< 5 %',
  pass: share < 5 && shareP10 < 5,
};
const fmt = (stats) => `${stats.median.toFixed(2)} [${stats.min.toFixed(2)}–${stats.max.toFixed(2)}]`;
console.log('\nPrompt prefix fingerprint (issue 39)');
console.log(
  '| workload | loop fingerprint µs/request | loop overhead µs/turn | share | target | standalone fingerprintPrefix+diffPrefix µs/request |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
console.log(
  `| ${row.workload} | ${fmt(perRequest)} | ${fmt(perTurn)} | ${share.toFixed(2)} % (p10: ${shareP10.toFixed(2)} %) | ${row.target} ${row.pass ? 'met' : 'MISSED'} | ${fmt(standalone)} |`,
);
writeFileSync(
  new URL(`../../results/${smoke ? 'prefix-smoke' : 'prefix-fingerprint'}.json`, import.meta.url),
  `${JSON.stringify(row, null, 2)}\n`,
);
