import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LEDGER_TABLE } from '../schema/migrate-schema.js';

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

/** Crashes a run mid-tool with SIGKILL, then resumes it in a new process; returns what the resume saw. */
async function crashAndResume(replay: 'never' | 'safe') {
  const path = join(dir, `${replay}.db`);
  const stateFile = join(dir, `${replay}.state.json`);
  const first = spawnFixture('crash-child.mjs', [path, stateFile, replay]);
  const blocked = await waitForMessage(first.child, 'blocked', first.output);
  // The tool is running, so its `started` row was committed before it: visible to another connection now.
  const beforeKill = statusOf(path);
  first.child.kill('SIGKILL');
  expect(await waitForExit(first.child)).toEqual({ code: null, signal: 'SIGKILL' });
  expect(existsSync(stateFile)).toBe(true);

  const second = spawnFixture('crash-resume.mjs', [path, stateFile, replay]);
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
  }, 30_000);

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
  }, 30_000);
});
