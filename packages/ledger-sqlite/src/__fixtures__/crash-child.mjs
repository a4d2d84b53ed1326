// Runs the scenario until its tool executes, which happens only after the `started` row is durable;
// the tool then tells the parent and blocks forever, waiting for the parent's SIGKILL.
import { writeFileSync } from 'node:fs';
import { serializeRunState } from '@tiny/harness';
import { createScenario, RUN_ID } from './crash-scenario.mjs';

const [path, stateFile, replay] = process.argv.slice(2);
const { harness } = createScenario({
  path,
  replay,
  resumed: false,
  execute: (_args, context) => {
    process.send?.({ type: 'blocked', idempotencyKey: context.idempotencyKey });
    setInterval(() => {}, 60_000);
    return new Promise(() => {});
  },
});
await harness.invoke({ runId: RUN_ID }, [{ role: 'user', content: 'go' }], {
  onCheckpoint: (state) => writeFileSync(stateFile, serializeRunState(state)),
});
process.send?.({ type: 'finished' });
