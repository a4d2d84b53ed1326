// A new process: opens the same database, resumes the run from the checkpoint file, and prints
// what happened as JSON (tool executions, what the model saw, events, ledger rows).
import { readFileSync } from 'node:fs';
import { createScenario, RUN_ID } from './crash-scenario.mjs';

const [path, stateFile, replay] = process.argv.slice(2);
const executions = [];
const { harness, ledger, model } = createScenario({
  path,
  replay,
  resumed: true,
  execute: ({ amount }, context) => {
    executions.push({ amount, idempotencyKey: context.idempotencyKey });
    return `refreshed ${amount}`;
  },
});
const run = await harness.resume({}, readFileSync(stateFile, 'utf8'));
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
