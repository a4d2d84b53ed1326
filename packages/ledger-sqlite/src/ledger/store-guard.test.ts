import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidRunStateError, type RunState, StorageError } from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteArtifactStore } from '../artifacts/sqlite-artifact-store.js';
import { SqliteCheckpointStore } from '../checkpoint/sqlite-checkpoint-store.js';
import { SqliteToolEffectLedger } from './sqlite-tool-effect-ledger.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tiny-store-guard-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const stateOf = (runId: string, text = 'go'): RunState => ({
  version: 1,
  runId,
  messages: [{ role: 'user', content: text }],
  budgets: { modelCalls: 0, toolCalls: 0 },
  usage: {},
});
const row = (runId: string, callId = 'c1') => ({ runId, callId, tool: 't', idempotencyKey: 'k' });
const options = (runId: string) => ({ runId, callId: 'c', name: 'n', mediaType: 'text/plain' });
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('every SQLite store method turns database failures into StorageError', () => {
  it('while another connection holds the write lock (SQLITE_BUSY), and nothing durable is lost', async () => {
    const path = join(dir, 'agent.db');
    const ledger = new SqliteToolEffectLedger({ path, busyTimeoutMs: 0 });
    const checkpoints = new SqliteCheckpointStore({ path, busyTimeoutMs: 0 });
    const artifacts = new SqliteArtifactStore({ path, busyTimeoutMs: 0 });
    await checkpoints.save(stateOf('a', 'kept'));
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const failures = [
      await rejection(checkpoints.delete('a')),
      await rejection(checkpoints.save(stateOf('a', 'lost'))),
      await rejection(checkpoints.claimResume('a', 'k')),
      await rejection(ledger.started(row('r'))),
      await rejection(artifacts.put('x', options('r'))),
    ];
    other.exec('ROLLBACK');
    other.close();
    for (const failure of failures) {
      expect(StorageError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ code: 'SQLITE_BUSY' });
    }
    expect((await checkpoints.load('a'))?.messages[0]).toEqual({ role: 'user', content: 'kept' });
    expect(await checkpoints.claimResume('a', 'k')).toBe(true);
    await Promise.all([ledger.close(), checkpoints.close(), artifacts.close()]);
  });

  it('on corrupted pages (SQLITE_CORRUPT), for reads, lists and deletes too', async () => {
    const path = join(dir, 'agent.db');
    {
      const ledger = new SqliteToolEffectLedger({ path });
      const checkpoints = ledger.checkpointStore();
      for (let n = 0; n < 20; n += 1) {
        await checkpoints.save(stateOf(`r${n}`, 'y'.repeat(3000)));
        await ledger.started(row('q', `c${n}`));
      }
      await ledger.close();
    }
    const db = new Database(path);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const size = statSync(path).size;
    const fd = openSync(path, 'r+');
    for (let offset = pageSize; offset < size; offset += pageSize) {
      writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, offset);
    }
    closeSync(fd);
    const ledger = new SqliteToolEffectLedger({ path });
    const checkpoints = ledger.checkpointStore();
    const artifacts = new SqliteArtifactStore({ ledger });
    const failures = [
      await rejection(checkpoints.load('r5')),
      await rejection(checkpoints.list()),
      await rejection(checkpoints.delete('r5')),
      await rejection(ledger.rows('q')),
      await rejection(ledger.unresolved('q')),
      await rejection(artifacts.list('q')),
    ];
    for (const failure of failures) {
      expect(StorageError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ code: 'SQLITE_CORRUPT' });
    }
    await ledger.close();
  });
});

describe('SQLite stores refuse malformed input with typed errors', () => {
  it('ledger ids must be strings: no raw TypeError or RangeError, and 1 is never stored for "1"', async () => {
    const ledger = new SqliteToolEffectLedger({ path: join(dir, 'agent.db') });
    for (const call of [
      () => ledger.started(null as never),
      () => ledger.started({ ...row('r'), runId: {} } as never),
      () => ledger.started({ ...row('r'), runId: 1 } as never),
      () => ledger.settled(null as never),
      () => ledger.settled({ runId: 'r', callId: 'c', status: 'bogus' } as never),
      () => ledger.unresolved({} as never),
      () => ledger.rows(Symbol() as never),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(InvalidInputError);
    }
    expect(await ledger.rows('1')).toEqual([]);
    await ledger.close();
  });

  it('save validates the state like load does and keeps the good checkpoint', async () => {
    const ledger = new SqliteToolEffectLedger({ path: join(dir, 'agent.db') });
    const checkpoints = ledger.checkpointStore();
    await checkpoints.save(stateOf('r', 'good'));
    const cyclic = stateOf('r') as RunState & { usage: Record<string, unknown> };
    cyclic.usage.self = cyclic;
    for (const state of [
      { runId: 'r' },
      cyclic,
      { ...stateOf('r'), usage: { a: 1n } },
      { ...stateOf('r'), toJSON: () => stateOf('other') },
    ]) {
      await expect(checkpoints.save(state as RunState)).rejects.toSatisfy(InvalidRunStateError.isInstance);
    }
    expect((await checkpoints.load('r'))?.messages[0]).toEqual({ role: 'user', content: 'good' });
    expect(await checkpoints.list()).toEqual(['r']);
    await ledger.close();
  });

  it('put refuses a detached buffer with InvalidInputError', async () => {
    const artifacts = new SqliteArtifactStore({ path: join(dir, 'agent.db') });
    const data = new Uint8Array(4);
    structuredClone(data.buffer, { transfer: [data.buffer] });
    await expect(artifacts.put(data, options('r'))).rejects.toBeInstanceOf(InvalidInputError);
    await artifacts.close();
  });
});
