import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LEDGER_TABLE } from '../schema/migrate-schema.js';

// The workers import the built package by name: run `npx tsup` (or `pnpm build`) first.
const worker = fileURLToPath(new URL('../__fixtures__/concurrency-worker.mjs', import.meta.url));
const WORKERS = 8;
const CALLS = 500;
const SHARED = 50;
// tmpfs when there is one: this test is about locking (no lost or duplicated rows), and on a slow
// disk the 4,000 fsynced `started` commits alone take 20 s. Durability is covered by the crash test.
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tiny-ledger-mp-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runWorker(path: string, index: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [path, String(index), String(CALLS), String(SHARED)], { stdio: 'pipe' });
    let report: unknown;
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('message', (message) => {
      report = message;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(report) : reject(new Error(`worker ${index} exited ${code}: ${stderr}`)),
    );
  });
}

describe('several processes on one database file', () => {
  it(`${WORKERS} workers × ${CALLS} calls: every call has exactly one started and one settled row`, async () => {
    // A fresh file: the workers also race to create the schema and switch it to WAL.
    const path = join(dir, 'shared.db');
    const reports = await Promise.all(Array.from({ length: WORKERS }, (_, index) => runWorker(path, index)));
    expect(reports).toEqual(
      Array.from({ length: WORKERS }, (_, index) => ({ worker: String(index), calls: CALLS, sharedCalls: SHARED })),
    );

    const db = new Database(path, { readonly: true });
    try {
      const perRun = db
        .prepare(
          `SELECT run_id AS runId, count(*) AS rows, count(DISTINCT call_id) AS calls,
                  sum(started_at IS NOT NULL) AS started, sum(settled_at IS NOT NULL) AS settled,
                  sum(status = 'failed') AS failed, sum(status = 'started') AS unsettled
           FROM ${LEDGER_TABLE} GROUP BY run_id ORDER BY run_id`,
        )
        .all();
      const failedPerRun = Math.ceil(CALLS / 7);
      expect(perRun).toEqual([
        ...Array.from({ length: WORKERS }, (_, index) => ({
          runId: `run-${index}`,
          rows: CALLS,
          calls: CALLS,
          started: CALLS,
          settled: CALLS,
          failed: failedPerRun,
          unsettled: 0,
        })),
        { runId: 'shared', rows: SHARED, calls: SHARED, started: SHARED, settled: SHARED, failed: 0, unsettled: 0 },
      ]);
      const duplicates = db
        .prepare(`SELECT run_id, call_id FROM ${LEDGER_TABLE} GROUP BY run_id, call_id HAVING count(*) > 1`)
        .all();
      expect(duplicates).toEqual([]);
      // Every worker's call ids are all present: none lost.
      const missing = db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${CALLS})
           SELECT count(*) AS missing FROM n, (SELECT DISTINCT run_id FROM ${LEDGER_TABLE} WHERE run_id <> 'shared') r
           WHERE NOT EXISTS (SELECT 1 FROM ${LEDGER_TABLE} t WHERE t.run_id = r.run_id AND t.call_id = 'call-' || n.i)`,
        )
        .get();
      expect(missing).toEqual({ missing: 0 });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});
