import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TinyError } from '@tiny/tools';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LedgerClosedError } from '../errors/ledger-closed-error.js';
import { LedgerSchemaVersionError } from '../errors/ledger-schema-version-error.js';
import { LEDGER_SCHEMA_VERSION, LEDGER_TABLE } from '../schema/migrate-schema.js';
import { SqliteToolEffectLedger } from './sqlite-tool-effect-ledger.js';

let dir: string;
let path: string;
const open: SqliteToolEffectLedger[] = [];

function ledger(options: { busyTimeoutMs?: number; durableSettled?: boolean } = {}): SqliteToolEffectLedger {
  const created = new SqliteToolEffectLedger({ path, ...options });
  open.push(created);
  return created;
}

const start = (callId: string, extra: { runId?: string; tool?: string; effectSummary?: string } = {}) => ({
  runId: extra.runId ?? 'r1',
  callId,
  tool: extra.tool ?? 'charge',
  idempotencyKey: `key-${callId}`,
  ...(extra.effectSummary === undefined ? {} : { effectSummary: extra.effectSummary }),
});

/** The connection's `PRAGMA synchronous` (1 = NORMAL, 2 = FULL). */
function synchronousOf(target: SqliteToolEffectLedger): number {
  return (target as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true }) as number;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tiny-ledger-'));
  path = join(dir, 'ledger.db');
});

afterEach(async () => {
  for (const each of open.splice(0)) await each.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SqliteToolEffectLedger: schema', () => {
  it('creates the schema in WAL mode and stamps the version', () => {
    ledger();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(LEDGER_SCHEMA_VERSION);
    expect(db.prepare(`SELECT count(*) AS n FROM ${LEDGER_TABLE}`).get()).toEqual({ n: 0 });
    db.close();
  });

  it('migrates a version-0 file and leaves other tables alone', () => {
    const db = new Database(path);
    db.exec('CREATE TABLE mine (x INTEGER); INSERT INTO mine VALUES (7);');
    db.close();
    ledger();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(LEDGER_SCHEMA_VERSION);
    expect(check.prepare('SELECT x FROM mine').get()).toEqual({ x: 7 });
    check.close();
  });

  it('refuses a file with a newer schema, with a typed error, and leaves it untouched', () => {
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    const error = (() => {
      try {
        ledger();
      } catch (caught) {
        return caught;
      }
    })();
    expect(LedgerSchemaVersionError.isInstance(error)).toBe(true);
    expect(TinyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ path, foundVersion: 99, supportedVersion: LEDGER_SCHEMA_VERSION });
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(99);
    check.close();
  });

  it('reopens an existing file with its rows', async () => {
    const first = ledger();
    await first.started(start('c1'));
    await first.close();
    expect(await ledger().unresolved('r1')).toMatchObject([{ callId: 'c1', status: 'started' }]);
  });
});

describe('SqliteToolEffectLedger: rows', () => {
  it('records a started row with every field', async () => {
    const store = ledger();
    vi.spyOn(Date, 'now').mockReturnValue(1_000);
    await store.started(start('c1', { effectSummary: 'charge 5 EUR' }));
    vi.restoreAllMocks();
    expect(await store.rows('r1')).toEqual([
      {
        runId: 'r1',
        callId: 'c1',
        tool: 'charge',
        idempotencyKey: 'key-c1',
        effectSummary: 'charge 5 EUR',
        status: 'started',
        startedAt: 1_000,
      },
    ]);
  });

  it('keeps one row per (run, call): a repeated started changes nothing', async () => {
    const store = ledger();
    await store.started(start('c1'));
    await store.started(start('c1', { tool: 'other' }));
    await store.started(start('c1', { runId: 'r2' }));
    expect(await store.rows('r1')).toMatchObject([{ callId: 'c1', tool: 'charge' }]);
    expect(await store.rows('r2')).toHaveLength(1);
  });

  it('settles a started row, keeping the started summary when the settle has none', async () => {
    const store = ledger();
    await store.started(start('c1', { effectSummary: 'intent' }));
    await store.started(start('c2', { effectSummary: 'intent' }));
    await store.settled({ runId: 'r1', callId: 'c1', status: 'completed' });
    await store.settled({ runId: 'r1', callId: 'c2', status: 'failed', effectSummary: 'declined' });
    const [first, second] = await store.rows('r1');
    expect(first).toMatchObject({ status: 'completed', effectSummary: 'intent' });
    expect(first?.settledAt).toBeTypeOf('number');
    expect(second).toMatchObject({ status: 'failed', effectSummary: 'declined' });
    expect(await store.unresolved('r1')).toEqual([]);
  });

  it('treats completed and failed as final: a later settle never overwrites them', async () => {
    const store = ledger();
    await store.started(start('c1'));
    await store.started(start('c2'));
    await store.settled({ runId: 'r1', callId: 'c1', status: 'completed' });
    await store.settled({ runId: 'r1', callId: 'c1', status: 'interrupted' });
    await store.settled({ runId: 'r1', callId: 'c1', status: 'failed' });
    await store.settled({ runId: 'r1', callId: 'c2', status: 'failed' });
    await store.settled({ runId: 'r1', callId: 'c2', status: 'completed' });
    expect((await store.rows('r1')).map((row) => row.status)).toEqual(['completed', 'failed']);
  });

  it('lets a late real outcome replace interrupted, but not the other way round', async () => {
    const store = ledger();
    await store.started(start('c1'));
    await store.settled({ runId: 'r1', callId: 'c1', status: 'interrupted' });
    await store.settled({ runId: 'r1', callId: 'c1', status: 'interrupted', effectSummary: 'again' });
    expect(await store.rows('r1')).toMatchObject([{ status: 'interrupted' }]);
    await store.settled({ runId: 'r1', callId: 'c1', status: 'completed', effectSummary: 'late' });
    expect(await store.rows('r1')).toMatchObject([{ status: 'completed', effectSummary: 'late' }]);
  });

  it('ignores a settle for a call that never started', async () => {
    const store = ledger();
    await store.settled({ runId: 'r1', callId: 'ghost', status: 'completed' });
    expect(await store.rows('r1')).toEqual([]);
  });

  it('lists unresolved rows by start time, then insertion order, for that run only', async () => {
    const store = ledger();
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(300);
    await store.started(start('late'));
    now.mockReturnValue(100);
    await store.started(start('early-b'));
    await store.started(start('early-a'));
    await store.started(start('elsewhere', { runId: 'r2' }));
    now.mockReturnValue(200);
    await store.started(start('done'));
    vi.restoreAllMocks();
    await store.settled({ runId: 'r1', callId: 'done', status: 'completed' });
    expect((await store.unresolved('r1')).map((row) => row.callId)).toEqual(['early-b', 'early-a', 'late']);
    expect(await store.unresolved('nobody')).toEqual([]);
  });

  it('shares rows between connections to one file', async () => {
    const writer = ledger();
    const reader = ledger();
    await writer.started(start('c1'));
    expect(await reader.unresolved('r1')).toHaveLength(1);
    await reader.settled({ runId: 'r1', callId: 'c1', status: 'completed' });
    expect(await writer.unresolved('r1')).toEqual([]);
  });
});

describe('SqliteToolEffectLedger: durability and locking', () => {
  it('fsyncs started writes (synchronous=FULL) and settles at NORMAL unless durableSettled', async () => {
    const store = ledger();
    await store.started(start('c1'));
    expect(synchronousOf(store)).toBe(2);
    await store.settled({ runId: 'r1', callId: 'c1', status: 'completed' });
    expect(synchronousOf(store)).toBe(1);
    await store.started(start('c2'));
    expect(synchronousOf(store)).toBe(2);

    const durable = ledger({ durableSettled: true });
    await durable.started(start('c3'));
    await durable.settled({ runId: 'r1', callId: 'c3', status: 'completed' });
    expect(synchronousOf(durable)).toBe(2);
  });

  it('rejects (not throws) with SQLITE_BUSY once the busy timeout passes while another writer holds the lock', async () => {
    const store = ledger({ busyTimeoutMs: 50 });
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const pending = store.started(start('c1'));
      await expect(pending).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    await store.started(start('c1'));
    expect(await store.unresolved('r1')).toHaveLength(1);
  });
});

describe('SqliteToolEffectLedger: close', () => {
  it('is idempotent and makes every later call reject with LedgerClosedError', async () => {
    const store = ledger();
    await store.close();
    await store.close();
    for (const [operation, call] of [
      ['started', () => store.started(start('c1'))],
      ['settled', () => store.settled({ runId: 'r1', callId: 'c1', status: 'completed' })],
      ['unresolved', () => store.unresolved('r1')],
      ['rows', () => store.rows('r1')],
    ] as const) {
      const error = await call().catch((caught: unknown) => caught);
      expect(LedgerClosedError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ name: 'LedgerClosedError', operation });
    }
  });
});
