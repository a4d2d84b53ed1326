// A new process: opens the same database, resumes the run from its checkpoint there, and prints
// what happened as JSON (tool executions, what the model saw, events, ledger rows). With `crash`,
// the resumed model blocks instead, for the parent to kill this process too.
import { createScenario, RUN_ID } from './crash-scenario.mjs';

const [path, replay, crash] = process.argv.slice(2);
const executions = [];
const { harness, ledger, model, checkpoints } = createScenario({
  path,
  replay,
  resumed: true,
  hangAtModel: crash === 'crash',
  execute: ({ amount }, context) => {
    executions.push({ amount, idempotencyKey: context.idempotencyKey });
    return `refreshed ${amount}`;
  },
});
const saved = await checkpoints.load(RUN_ID);
if (saved === undefined) throw new Error('no checkpoint to resume');
const run = await harness.resume({}, saved, { onCheckpoint: (state) => checkpoints.save(state) });
const seen = model.requests.flatMap((request) => request.messages.filter((message) => message.role === 'tool'));
console.log(
  JSON.stringify({
    runId: run.runId,
    outcome: run.outcome,
    text: run.text,
    executions,
    toolMessagesSeenByModel: seen,
    reconciled: run.events.filter((event) => event.type === 'tool_effect_reconciled'),
    rows: await ledger.rows(RUN_ID),
  }),
);
await ledger.close();
