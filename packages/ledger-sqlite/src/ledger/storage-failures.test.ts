import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactUnreadableError, StorageError } from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteArtifactStore } from '../artifacts/sqlite-artifact-store.js';
import { SqliteCheckpointStore } from '../checkpoint/sqlite-checkpoint-store.js';
import { LedgerOpenError } from '../errors/ledger-open-error.js';
import { ARTIFACT_TABLE } from '../schema/migrate-schema.js';
import { databases } from '../schema/shared-connection.js';
import { SqliteToolEffectLedger } from './sqlite-tool-effect-ledger.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tiny-ledger-failures-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const started = (runId: string, callId = 'c1') => ({ runId, callId, tool: 't', idempotencyKey: `k-${callId}` });
const options = (runId: string) => ({ mediaType: 'text/plain', name: 'a.txt', runId, callId: 'c1' });

/** Caps the database at its current size (real SQLite: `PRAGMA max_page_count`), as a full disk would. */
function fill(ledger: SqliteToolEffectLedger): void {
  const db = databases.get(ledger);
  if (db === undefined) throw new Error('no connection');
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${pages}`);
}

describe('SQLite stores on a full database', () => {
  it('reject started and put with StorageError (SQLITE_FULL), keeping every row written before', async () => {
    const ledger = new SqliteToolEffectLedger({ path: join(dir, 'agent.db') });
    const artifacts = new SqliteArtifactStore({ ledger });
    await ledger.started(started('r1'));
    const kept = await artifacts.put('small', options('r1'));
    fill(ledger);
    const put = await artifacts.put('x'.repeat(200_000), options('r1')).catch((caught: unknown) => caught);
    expect(StorageError.isInstance(put)).toBe(true);
    expect(put).toMatchObject({ operation: 'SqliteArtifactStore.put', code: 'SQLITE_FULL' });
    const rows = Array.from({ length: 400 }, (_, n) => started('r1', `c${n + 2}-${'y'.repeat(500)}`));
    const start = await (async () => {
      for (const row of rows) await ledger.started(row);
    })().catch((caught: unknown) => caught);
    expect(StorageError.isInstance(start)).toBe(true);
    expect(start).toMatchObject({ operation: 'SqliteToolEffectLedger.started', code: 'SQLITE_FULL' });
    expect((await ledger.rows('r1'))[0]).toMatchObject({ callId: 'c1', status: 'started' });
    expect(await artifacts.list('r1')).toEqual([kept]);
    await ledger.close();
  });
});

describe('SQLite stores and odd input', () => {
  it('refuse lone surrogates with InvalidInputError instead of storing text that reads back changed', async () => {
    const ledger = new SqliteToolEffectLedger({ path: join(dir, 'agent.db') });
    await expect(ledger.started(started('\uD800'))).rejects.toBeInstanceOf(InvalidInputError);
    await expect(new SqliteArtifactStore({ ledger }).put('x', options('r\uDC00'))).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    await ledger.started(started('..'));
    await ledger.started(started('A'));
    await ledger.started(started('a'));
    expect((await ledger.rows('A')).map((row) => row.runId)).toEqual(['A']);
    await ledger.close();
  });

  it('lists checkpoints sorted like every other store (UTF-16 order, not SQLite byte order), refusing lone surrogates', async () => {
    const store = new SqliteCheckpointStore({ path: join(dir, 'agent.db') });
    const ids = ['\u{10000}', '\0', 'a', '\uFFFD', 'A'];
    for (const runId of ids) {
      await store.save({ version: 1, runId, messages: [], budgets: { modelCalls: 0, toolCalls: 0 }, usage: {} });
    }
    expect(await store.list()).toEqual([...ids].sort());
    await expect(
      store.save({ version: 1, runId: '\uD800', messages: [], budgets: { modelCalls: 0, toolCalls: 0 }, usage: {} }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await store.close();
  });

  it("opens a path in a missing directory with LedgerOpenError ('missing_directory') in either mode", () => {
    for (const mode of ['open', 'create'] as const) {
      let error: unknown;
      try {
        new SqliteToolEffectLedger({ path: join(dir, 'missing', 'agent.db'), mode });
      } catch (caught) {
        error = caught;
      }
      expect(LedgerOpenError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ problem: 'missing_directory' });
    }
  });

  it('checks the bytes against the reference, so a consistent rewrite of bytes and row is refused', async () => {
    const ledger = new SqliteToolEffectLedger({ path: join(dir, 'agent.db') });
    const artifacts = new SqliteArtifactStore({ ledger });
    const ref = await artifacts.put('original', options('r1'));
    const db = databases.get(ledger);
    const forged = Buffer.from('forged!!');
    const { createHash } = await import('node:crypto');
    db?.prepare(`UPDATE ${ARTIFACT_TABLE} SET data = ?, bytes = ?, sha256 = ? WHERE uri = ?`).run(
      forged,
      forged.byteLength,
      createHash('sha256').update(forged).digest('hex'),
      ref.uri,
    );
    const error = await artifacts.get(ref).catch((caught: unknown) => caught);
    expect(ArtifactUnreadableError.isInstance(error)).toBe(true);
    expect((error as ArtifactUnreadableError).reason).toMatch(/reference/);
    await ledger.close();
  });
});
