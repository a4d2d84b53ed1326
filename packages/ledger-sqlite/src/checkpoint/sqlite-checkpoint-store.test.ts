import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointUnreadableError, type RunState } from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerClosedError } from '../errors/ledger-closed-error.js';
import { LedgerOpenError } from '../errors/ledger-open-error.js';
import { SqliteToolEffectLedger } from '../ledger/sqlite-tool-effect-ledger.js';
import { CHECKPOINT_TABLE, LEDGER_SCHEMA_VERSION, LEDGER_TABLE } from '../schema/migrate-schema.js';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tiny-checkpoints-sqlite-'));
  path = join(dir, 'agent.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const stateOf = (runId: string, text = 'go'): RunState => ({
  version: 1,
  runId,
  messages: [{ role: 'user', content: text }],
  budgets: { modelCalls: 0, toolCalls: 0 },
  usage: {},
});

describe('SqliteCheckpointStore', () => {
  it("keeps checkpoints in the ledger's file, beside its rows, readable from another connection", async () => {
    const ledger = new SqliteToolEffectLedger({ path });
    const store = ledger.checkpointStore();
    await store.save(stateOf('r1', 'first'));
    await ledger.started({ runId: 'r1', callId: 'c1', tool: 't', idempotencyKey: 'k' });
    await store.save(stateOf('r1', 'second'));
    await store.save(stateOf('r0'));
    const other = new SqliteCheckpointStore({ path, mode: 'open' });
    expect((await other.load('r1'))?.messages).toEqual([{ role: 'user', content: 'second' }]);
    expect(await other.list()).toEqual(['r0', 'r1']);
    expect(await other.load('nope')).toBeUndefined();
    await other.delete('r0');
    await other.delete('r0');
    expect(await store.list()).toEqual(['r1']);
    expect((await ledger.rows('r1')).map((row) => row.callId)).toEqual(['c1']);
    await other.close();
    await ledger.close();
    await expect(store.load('r1')).rejects.toBeInstanceOf(LedgerClosedError);
  });

  it('saves with synchronous=FULL, each save one transaction', async () => {
    const store = new SqliteCheckpointStore({ path });
    await store.save(stateOf('r1'));
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.inTransaction).toBe(false);
    await store.close();
  });

  it.each([
    ['torn JSON', (text: string) => text.slice(0, 20), /not valid JSON/],
    ['another schema version', (text: string) => text.replace('"version":1', '"version":7'), /schema version 7/],
    ['the state of another run', (text: string) => text.replace('"runId":"r1"', '"runId":"x"'), /run "x"/],
  ])('rejects %s with CheckpointUnreadableError and keeps the row', async (_name, damage, reason) => {
    const store = new SqliteCheckpointStore({ path });
    await store.save(stateOf('r1'));
    const db = new Database(path);
    const { state } = db.prepare(`SELECT state FROM ${CHECKPOINT_TABLE}`).get() as { state: string };
    db.prepare(`UPDATE ${CHECKPOINT_TABLE} SET state = ?`).run(damage(state));
    db.close();
    const error = await store.load('r1').catch((caught: unknown) => caught);
    expect(CheckpointUnreadableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ runId: 'r1', reason: expect.stringMatching(reason) });
    expect(await store.list()).toEqual(['r1']);
    await store.close();
  });

  it('requires a path or a ledger, and refuses an empty file in open mode', async () => {
    expect(() => new SqliteCheckpointStore({ path: '' })).toThrow(InvalidInputError);
    expect(() => new SqliteCheckpointStore({ ledger: {} as SqliteToolEffectLedger })).toThrow(InvalidInputError);
    expect(() => new SqliteCheckpointStore({ path: join(dir, 'none.db'), mode: 'open' })).toThrow(LedgerOpenError);
    const store = new SqliteCheckpointStore({ path: ':memory:' });
    await expect(store.save(stateOf(''))).rejects.toBeInstanceOf(InvalidInputError);
    await store.close();
    await expect(store.list()).rejects.toBeInstanceOf(LedgerClosedError);
  });

  it('migrates a version-1 ledger file, keeping its rows', async () => {
    const db = new Database(path);
    db.exec(`CREATE TABLE ${LEDGER_TABLE} (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, call_id TEXT NOT NULL, tool TEXT NOT NULL,
      idempotency_key TEXT NOT NULL, effect_summary TEXT, status TEXT NOT NULL, started_at INTEGER NOT NULL,
      settled_at INTEGER, UNIQUE (run_id, call_id))`);
    db.prepare(`INSERT INTO ${LEDGER_TABLE} (run_id, call_id, tool, idempotency_key, status, started_at)
      VALUES ('r1', 'c1', 't', 'k', 'started', 1)`).run();
    db.pragma('user_version = 1');
    db.close();
    const ledger = new SqliteToolEffectLedger({ path, mode: 'open' });
    const store = ledger.checkpointStore();
    await store.save(stateOf('r1'));
    expect((await ledger.unresolved('r1')).map((row) => row.callId)).toEqual(['c1']);
    expect((await store.load('r1'))?.runId).toBe('r1');
    await ledger.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(LEDGER_SCHEMA_VERSION);
    check.close();
  });
});
