import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidInputError } from '@tiny/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestateAgentClient } from '../client/restate-agent-client.js';
import { AdminApiError } from '../errors/admin-api-error.js';
import { DecisionRefusedError } from '../errors/decision-refused-error.js';
import { ResultTimeoutError } from '../errors/result-timeout-error.js';
import {
  freePort,
  type LocalRestateServer,
  registerDeployment,
  repointDeployment,
  startLocalRestateServer,
} from '../server/local-restate-server.js';

const workerScript = fileURLToPath(new URL('../__fixtures__/agent-worker.mjs', import.meta.url));
const stateDir = mkdtempSync(join(tmpdir(), 'tiny-restate-test-'));
const workers = new Set<ChildProcess>();
let server: LocalRestateServer | undefined;
let port = 0;
let client: RestateAgentClient;
const serverLog: string[] = [];

const lines = (name: string) =>
  existsSync(join(stateDir, name)) ? readFileSync(join(stateDir, name), 'utf8').split('\n').filter(Boolean) : [];
const effects = (runId: string) =>
  lines('effects.jsonl')
    .map((line) => JSON.parse(line) as { key: string; cents: number; worker: string; runId: string })
    .filter((effect) => effect.runId === runId);

function startWorker(id: string, env: Record<string, string> = {}, on = port): Promise<ChildProcess> {
  const child = fork(workerScript, [], {
    env: { ...process.env, RESTATE_LOGGING: 'WARN', PORT: String(on), STATE_DIR: stateDir, WORKER_ID: id, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  workers.add(child);
  child.once('exit', () => workers.delete(child));
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`worker ${id} exited with ${code}`)));
  });
}

async function killWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function killAllWorkers(): Promise<void> {
  await Promise.all([...workers].map(killWorker));
}

async function waitForFile(name: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(join(stateDir, name))) {
    if (Date.now() > deadline) throw new Error(`${name} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  server = await startLocalRestateServer({ log: (chunk) => serverLog.push(chunk) });
  port = await freePort();
  await startWorker('w1');
  await registerDeployment(server.adminUrl, `http://127.0.0.1:${port}`);
  client = new RestateAgentClient({ ingressUrl: server.ingressUrl, service: 'agent' });
}, 180_000);

afterAll(async () => {
  await killAllWorkers();
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
  if (server) expect(existsSync(server.baseDir)).toBe(false);
});

describe('a harness run as a Restate workflow (real restate-server on 127.0.0.1)', () => {
  it('runs an agent with a side-effecting tool through the ingress', async () => {
    const result = await client.run('run-1', { messages: [{ role: 'user', content: 'charge order A1' }] });
    expect(result.outcome).toBe('final');
    expect(result.text).toBe('Done: order A1: 5 EUR; charged 500');
    expect(result.executedTools).toEqual(['lookup', 'charge']);
    expect(effects('run-1')).toHaveLength(1);
    const events = lines('events.log').filter((line) => line.startsWith('run-1 '));
    expect(events[0]).toBe('run-1 run_started');
    expect(events.at(-1)).toBe('run-1 run_completed');
    expect(events.filter((line) => line === 'run-1 tool_started')).toHaveLength(2);
  });

  it('survives a worker killed mid-tool: the effect applies once and journaled turns are not asked again', async () => {
    await killAllWorkers();
    const first = await startWorker('w2', { HANG_AFTER_EFFECT: '1' });
    const callsBefore = lines('model-calls.log').length;
    await client.start('run-2', { messages: [{ role: 'user', content: 'charge order A2' }] });
    await waitForFile('effect-recorded'); // the charge is applied; the worker now hangs inside the tool
    expect(effects('run-2')).toHaveLength(1);
    await killWorker(first);
    rmSync(join(stateDir, 'effect-recorded'));

    await startWorker('w3');
    const result = await client.result('run-2');
    expect(result.text).toBe('Done: order A1: 5 EUR; charged 500');
    const applied = effects('run-2');
    expect(applied).toHaveLength(1);
    expect(applied[0]?.worker).toBe('w2');
    // w2 asked the model for turn 1; w3 replayed it from the journal and asked only for turn 2.
    expect(lines('model-calls.log').slice(callsBefore)).toEqual(['w2 turn=1', 'w3 turn=2']);
    // Events delivered in journaled batches: nothing the first worker delivered is delivered again.
    const events = lines('events.log').filter((line) => line.startsWith('run-2 '));
    expect(events.filter((line) => line === 'run-2 run_started')).toHaveLength(1);
    expect(events.filter((line) => line === 'run-2 model_started')).toHaveLength(2);
    expect(events.at(-1)).toBe('run-2 run_completed');
  });

  it('waits on an approval across a full worker outage; the ingress decision resumes it', async () => {
    await client.start('run-3', { messages: [{ role: 'user', content: 'refund order A3' }] });
    const pending = await client.waitForPending('run-3');
    expect(pending.calls.map((call) => [call.callId, call.toolName, call.reason])).toEqual([
      ['refund-1', 'refund', 'approval_required'],
    ]);
    expect(effects('run-3')).toEqual([]);
    await killAllWorkers();

    expect(workers.size).toBe(0);
    await client.submitDecision('run-3', 'refund-1', { kind: 'approve' });
    await startWorker('w4');
    const result = await client.result('run-3');
    expect(result.outcome).toBe('final');
    expect(result.text).toBe('Done: order A1: 5 EUR; refunded 300');
    expect(effects('run-3').map((effect) => effect.cents)).toEqual([-300]);
    expect(await client.pending('run-3')).toEqual({ round: 0, calls: [] });
    // Two harness rounds (invoke, then resumeDeferred), one durable run: one start, one end.
    const events = lines('events.log').filter((line) => line.startsWith('run-3 '));
    expect(events.filter((line) => line === 'run-3 run_started')).toHaveLength(1);
    expect(events.filter((line) => line === 'run-3 run_completed')).toHaveLength(1);
    expect(events[0]).toBe('run-3 run_started');
    expect(events.at(-1)).toBe('run-3 run_completed');
  });

  it('ends a wait for a result after its timeout with a typed error; the run goes on', async () => {
    await client.start('run-7', { messages: [{ role: 'user', content: 'refund order A7' }] });
    await client.waitForPending('run-7');
    const started = Date.now();
    const waited = await client.result('run-7', { timeoutMs: 300 }).catch((error: unknown) => error);
    expect(ResultTimeoutError.isInstance(waited) && [waited.runId, waited.timeoutMs]).toEqual(['run-7', 300]);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(client.result('run-7', { timeoutMs: Number.NaN })).rejects.toSatisfy(InvalidInputError.isInstance);
    await client.decide('run-7', 'refund-1', { kind: 'approve' });
    expect((await client.result('run-7')).text).toBe('Done: order A1: 5 EUR; refunded 300');
  });

  it('moves an in-flight run to a replacement worker at a new URI with repointDeployment', async () => {
    await killAllWorkers();
    const oldUri = `http://127.0.0.1:${port}`;
    const first = await startWorker('w5', { HANG_AFTER_EFFECT: '1' });
    await client.start('run-8', { messages: [{ role: 'user', content: 'charge order A8' }] });
    await waitForFile('effect-recorded');
    await killWorker(first);
    rmSync(join(stateDir, 'effect-recorded'));

    const newPort = await freePort();
    await startWorker('w6', {}, newPort);
    const moved = await repointDeployment(server?.adminUrl ?? '', oldUri, `http://127.0.0.1:${newPort}`);
    expect(moved).toHaveLength(1);
    const result = await client.result('run-8', { timeoutMs: 30_000 });
    expect(result.text).toBe('Done: order A1: 5 EUR; charged 500');
    expect(effects('run-8').map((effect) => effect.worker)).toEqual(['w5']);
    const missing = await repointDeployment(server?.adminUrl ?? '', oldUri, oldUri).catch((error: unknown) => error);
    expect(AdminApiError.isInstance(missing) && missing.status).toBe(0);
    // Back to the first address for the tests after this one.
    await killAllWorkers();
    await startWorker('w7');
    await repointDeployment(server?.adminUrl ?? '', `http://127.0.0.1:${newPort}`, oldUri);
  });

  it('answers a denial to the model and refuses stale, foreign and malformed decisions', async () => {
    await client.start('run-4', { messages: [{ role: 'user', content: 'refund order A4' }] });
    await client.waitForPending('run-4');
    const foreign = await client.decide('run-4', 'refund-9', { kind: 'approve' }).catch((error: unknown) => error);
    expect(DecisionRefusedError.isInstance(foreign) && [foreign.problem, foreign.status]).toEqual(['foreign', 404]);
    const malformed = await client
      .decide('run-4', 'refund-1', { kind: 'deny' } as never)
      .catch((error: unknown) => error);
    expect(DecisionRefusedError.isInstance(malformed) && [malformed.problem, malformed.status]).toEqual([
      'invalid',
      400,
    ]);

    const [pendingCall] = (await client.pending('run-4')).calls;
    expect(pendingCall?.digest).toMatch(/^(sha256|hmac-sha256):/);
    const mismatch = await client
      .decide('run-4', 'refund-1', { kind: 'approve', digest: 'sha256:0000' })
      .catch((error: unknown) => error);
    expect(DecisionRefusedError.isInstance(mismatch) && [mismatch.problem, mismatch.status]).toEqual(['mismatch', 422]);
    await client.decide('run-4', 'refund-1', {
      kind: 'deny',
      message: 'no refunds today',
      digest: pendingCall?.digest,
    });
    const result = await client.result('run-4');
    expect(result.text).toContain('no refunds today');
    expect(result.executedTools).toEqual(['lookup']);
    expect(effects('run-4')).toEqual([]);

    const stale = await client.decide('run-4', 'refund-1', { kind: 'approve' }).catch((error: unknown) => error);
    expect(DecisionRefusedError.isInstance(stale) && [stale.problem, stale.status]).toEqual(['stale', 409]);
    expect(effects('run-4')).toEqual([]);
  });

  it('refuses invalid edited arguments to the host, like resumeDeferred; a valid edit then runs', async () => {
    await client.start('run-5', { messages: [{ role: 'user', content: 'refund order A5' }] });
    await client.waitForPending('run-5');
    const refused = await client
      .decide('run-5', 'refund-1', { kind: 'approve_with_args', arguments: { cents: -5 } })
      .catch((error: unknown) => error);
    expect(DecisionRefusedError.isInstance(refused) && [refused.problem, refused.status]).toEqual(['invalid', 400]);
    expect((refused as Error).message).toMatch(/\/cents/);
    expect(effects('run-5')).toEqual([]);
    expect((await client.pending('run-5')).calls.map((call) => call.callId)).toEqual(['refund-1']);
    await client.decide('run-5', 'refund-1', { kind: 'approve_with_args', arguments: { cents: 120 } });
    const result = await client.result('run-5');
    expect(effects('run-5').map((effect) => effect.cents)).toEqual([-120]);
    expect(result.executedTools).toEqual(['lookup', 'refund']);
  });

  it('enforces the host allow-list exactly as in-process', async () => {
    const result = await client.run('run-6', {
      messages: [{ role: 'user', content: 'charge order A6' }],
      context: { host: { allowedTools: ['lookup'] } },
    });
    expect(result.executedTools).toEqual(['lookup']);
    expect(effects('run-6')).toEqual([]);
    expect(result.text).toMatch(/unknown tool `charge`/);
  });
});
