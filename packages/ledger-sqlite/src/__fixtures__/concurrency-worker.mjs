// One of several processes writing to one ledger file at once: `count` calls of its own run
// (each `started` sent twice, as a retrying host would), plus a share of calls on a run that every
// worker writes, so the same (run, call) keys race across processes. Reports via IPC when done.
import { SqliteToolEffectLedger } from '@tiny/ledger-sqlite';

const [path, worker, count, shared] = process.argv.slice(2);
const calls = Number(count);
const sharedCalls = Number(shared);
const ledger = new SqliteToolEffectLedger({ path, busyTimeoutMs: 20_000 });
const runId = `run-${worker}`;
for (let index = 0; index < calls; index++) {
  const callId = `call-${index}`;
  const row = { runId, callId, tool: 'add', idempotencyKey: `${runId}/${callId}` };
  await ledger.started(row);
  await ledger.started(row);
  await ledger.settled({ runId, callId, status: index % 7 === 0 ? 'failed' : 'completed' });
}
for (let index = 0; index < sharedCalls; index++) {
  const callId = `shared-${index}`;
  await ledger.started({ runId: 'shared', callId, tool: 'add', idempotencyKey: callId, effectSummary: `worker ${worker}` });
  await ledger.settled({ runId: 'shared', callId, status: 'completed' });
}
await ledger.close();
process.send?.({ worker, calls, sharedCalls });
