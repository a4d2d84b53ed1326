// One process of the kill test: runs (or resumes) several agent runs at once, each at its own pace,
// until they finish or the parent's SIGKILL lands somewhere in the middle. Every durable artefact
// lives under `dir`: the SQLite ledger, the checkpoint store, `effects.log` (one line per real
// `append` effect, the side effect that must never happen twice) and `results/<runId>.json` once a
// run finished. Imports the built packages by name.
import { appendFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentHarness, parseRunState, serializeRunState } from '@tiny/harness';
import { createFileCheckpointStore } from '@tiny/harness/node';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { SqliteToolEffectLedger } from '@tiny/ledger-sqlite';
import { defineTool, ToolPolicy } from '@tiny/tools';

const [dir, storeKind, runList, round, turnsText] = process.argv.slice(2);
const runIds = runList.split(',');
const TURNS = Number(turnsText);
const resultsDir = join(dir, 'results');
mkdirSync(resultsDir, { recursive: true });
const effectsLog = join(dir, 'effects.log');
const errorsLog = join(dir, 'errors.log');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = () => sleep(Math.floor(Math.random() * 3));

// The first round creates the database; every later one must find it (`mode: 'open'`).
const ledger = new SqliteToolEffectLedger({ path: join(dir, 'ledger.db'), mode: round === '0' ? 'create' : 'open' });

/** The hand-rolled pattern the README used to show, kept as the control: it can tear. */
function naiveStore(path) {
  mkdirSync(path, { recursive: true });
  return {
    save: async (state) => writeFileSync(join(path, `${state.runId}.json`), serializeRunState(state)),
    load: async (runId) => {
      const file = join(path, `${runId}.json`);
      if (!existsSync(file)) return undefined;
      return parseRunState(await readFile(file, 'utf8'));
    },
  };
}

const store =
  storeKind === 'sqlite'
    ? ledger.checkpointStore()
    : storeKind === 'file'
      ? createFileCheckpointStore(join(dir, 'checkpoints'))
      : naiveStore(join(dir, 'naive'));

const append = defineTool({
  name: 'append',
  description: 'Append a line to the log (a side effect: never repeat).',
  parameters: { type: 'object', required: ['line'], properties: { line: { type: 'string' } } },
  policy: ToolPolicy.classified().withRuntime({ replay: 'never' }),
  execute: async ({ line }, context) => {
    await jitter();
    appendFileSync(effectsLog, `${context.runId} ${context.callId} ${line}\n`);
    await jitter();
    return `appended ${line}`;
  },
});
const refresh = defineTool({
  name: 'refresh',
  description: 'Refresh a cache (safe to repeat).',
  parameters: { type: 'object', required: ['key'], properties: { key: { type: 'string' } } },
  policy: ToolPolicy.classified().withRuntime({ replay: 'safe' }),
  execute: async ({ key }) => {
    await jitter();
    return `refreshed ${key}`;
  },
});

// The model decides from the transcript alone, so any process can continue any run.
const model = new ScriptedModel({
  recordRequests: false,
  repeatLast: true,
  steps: [
    async (request) => {
      await jitter();
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      if (turn >= TURNS) return { content: 'done' };
      const calls = [scriptedToolCall('append', { line: `line ${turn}` }, `t${turn}-append`)];
      if (turn % 2 === 1) calls.push(scriptedToolCall('refresh', { key: `k${turn}` }, `t${turn}-refresh`));
      return { toolCalls: calls };
    },
  ],
});
const harness = new AgentHarness({ model, tools: [append, refresh], ledger, limits: { maxModelCalls: 100 } });
// A large first message makes every checkpoint a sizeable write, so kills land inside writes too.
const bulk = `Keep this context: ${'lorem ipsum dolor sit amet '.repeat(2400)}`;

async function drive(runId) {
  const result = join(resultsDir, `${runId}.json`);
  if (existsSync(result)) return;
  const onCheckpoint = async (state) => {
    await store.save(state);
    process.send?.({ type: 'checkpoint' }); // lets the parent pick its kill point
  };
  let run;
  try {
    const saved = await store.load(runId);
    run =
      saved === undefined
        ? await harness.invoke({ runId }, [{ role: 'user', content: bulk }], { onCheckpoint })
        : await harness.resume({}, saved, { onCheckpoint });
  } catch (error) {
    appendFileSync(errorsLog, `${JSON.stringify({ runId, round, error: String(error?.stack ?? error) })}\n`);
    return;
  }
  const answers = run.messages
    .filter((message) => message.role === 'tool')
    .map((message) => ({ callId: message.toolCallId, toolName: message.toolName, content: message.content }));
  const calls = run.messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []));
  const reconciled = run.events.filter((event) => event.type === 'tool_effect_reconciled');
  const temp = `${result}.tmp`;
  writeFileSync(
    temp,
    JSON.stringify({ runId, outcome: run.outcome, text: run.text, calls: calls.map((call) => call.id), answers, reconciled }),
  );
  renameSync(temp, result);
}

process.send?.({ type: 'ready' });
await Promise.all(runIds.map(drive));
await ledger.close();
process.send?.({ type: 'finished' });
