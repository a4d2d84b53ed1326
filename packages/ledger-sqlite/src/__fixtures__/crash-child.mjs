// Runs the scenario until its tool executes, which happens only after the `started` row is durable;
// the tool then tells the parent and blocks forever, waiting for the parent's SIGKILL.
import { createScenario, RUN_ID } from './crash-scenario.mjs';

const [path, replay] = process.argv.slice(2);
const { harness, checkpoints } = createScenario({
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
  onCheckpoint: (state) => checkpoints.save(state),
});
process.send?.({ type: 'finished' });
