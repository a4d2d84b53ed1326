import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKPOINT_TABLE, LEDGER_TABLE } from '../schema/migrate-schema.js';

// The children import the built packages by name: run `npx tsup` (or `pnpm build`) first.
const fixture = (name: string) => fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tiny-ledger-crash-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function spawnFixture(name: string, args: string[]): { child: ChildProcess; output: () => string } {
  const child = fork(fixture(name), args, { stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

function waitForMessage(child: ChildProcess, type: string, output: () => string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    child.on('message', (message: Record<string, unknown>) => {
      if (message.type === type) resolve(message);
    });
    child.on('exit', (code, signal) =>
      reject(new Error(`child exited (${code ?? signal}) before "${type}": ${output()}`)),
    );
  });
}

function waitForExit(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

function statusOf(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(`SELECT call_id AS callId, status, idempotency_key AS idempotencyKey FROM ${LEDGER_TABLE}`).all();
  } finally {
    db.close();
  }
}

function checkpointedRuns(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(`SELECT run_id AS runId FROM ${CHECKPOINT_TABLE}`).all();
  } finally {
    db.close();
  }
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  expect(await waitForExit(child)).toEqual({ code: null, signal: 'SIGKILL' });
}

/**
 * Crashes a run mid-tool with SIGKILL, then resumes it in a new process; with `crashedResumes`,
 * that many resumes are killed too (after reconciling, at their model call) before the last one
 * runs to the end. Returns what the last resume saw.
 */
async function crashAndResume(replay: 'never' | 'safe', crashedResumes = 0) {
  const path = join(dir, `${replay}-${crashedResumes}.db`);
  const first = spawnFixture('crash-child.mjs', [path, replay]);
  const blocked = await waitForMessage(first.child, 'blocked', first.output);
  // The tool is running, so its `started` row was committed before it: visible to another connection now.
  const beforeKill = statusOf(path);
  await kill(first.child);
  expect(checkpointedRuns(path)).toEqual([{ runId: 'crash-run' }]);
  for (let crash = 0; crash < crashedResumes; crash++) {
    const crashing = spawnFixture('crash-resume.mjs', [path, replay, 'crash']);
    await waitForMessage(crashing.child, 'blocked', crashing.output);
    await kill(crashing.child);
  }

  const second = spawnFixture('crash-resume.mjs', [path, replay]);
  const exit = await waitForExit(second.child);
  expect(exit, second.output()).toEqual({ code: 0, signal: null });
  const report = JSON.parse(second.output().trim().split('\n').at(-1) ?? '');
  return { blocked, beforeKill, report, afterResume: statusOf(path) };
}

describe('crash mid-tool, resume in a new process', () => {
  it("does not run a replay: 'never' tool again; the model receives the interruption error", async () => {
    const { blocked, beforeKill, report, afterResume } = await crashAndResume('never');
    expect(beforeKill).toEqual([{ callId: 'c1', status: 'started', idempotencyKey: blocked.idempotencyKey }]);
    expect(report.executions).toEqual([]);
    expect(report.reconciled).toMatchObject([
      { type: 'tool_effect_reconciled', callId: 'c1', toolName: 'charge_card', action: 'interrupted' },
    ]);
    expect(report.toolMessagesSeenByModel).toEqual([
      expect.objectContaining({
        toolCallId: 'c1',
        isError: true,
        content: expect.stringContaining('interrupted before settlement'),
      }),
    ]);
    expect(report.text).toContain('interrupted before settlement');
    expect(report.outcome).toBe('final');
    expect(afterResume).toEqual([{ callId: 'c1', status: 'interrupted', idempotencyKey: blocked.idempotencyKey }]);
  });

  it.each([1, 2])(
    "after %i more crash(es) while resuming, still says the replay: 'never' effect is unknown, never done",
    async (crashedResumes) => {
      const { blocked, report, afterResume } = await crashAndResume('never', crashedResumes);
      expect(report.executions).toEqual([]);
      expect(report.reconciled).toMatchObject([
        { callId: 'c1', toolName: 'charge_card', action: 'interrupted', recorded: 'interrupted' },
      ]);
      expect(report.toolMessagesSeenByModel).toEqual([
        expect.objectContaining({
          toolCallId: 'c1',
          isError: true,
          content: expect.stringMatching(/interrupted before settlement: it may or may not have taken effect/),
        }),
      ]);
      expect(report.text).not.toMatch(/completed|result was lost/);
      expect(afterResume).toEqual([{ callId: 'c1', status: 'interrupted', idempotencyKey: blocked.idempotencyKey }]);
    },
  );

  it("runs a replay: 'safe' tool exactly once more, with the same idempotency key", async () => {
    const { blocked, beforeKill, report, afterResume } = await crashAndResume('safe');
    expect(beforeKill).toEqual([{ callId: 'c1', status: 'started', idempotencyKey: blocked.idempotencyKey }]);
    expect(report.executions).toEqual([{ amount: 5, idempotencyKey: blocked.idempotencyKey }]);
    expect(report.reconciled).toMatchObject([{ callId: 'c1', toolName: 'refresh_cache', action: 're_execute' }]);
    expect(report.toolMessagesSeenByModel).toEqual([
      expect.objectContaining({ toolCallId: 'c1', content: 'refreshed 5' }),
    ]);
    expect(report.text).toBe('model saw: refreshed 5');
    expect(report.outcome).toBe('final');
    expect(afterResume).toEqual([{ callId: 'c1', status: 'completed', idempotencyKey: blocked.idempotencyKey }]);
  });
});
