import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '@tiny/tools';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerOpenError } from '../errors/ledger-open-error.js';
import { SqliteToolEffectLedger } from './sqlite-tool-effect-ledger.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tiny-ledger-open-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const openError = (run: () => unknown): LedgerOpenError => {
  try {
    run();
  } catch (error) {
    if (LedgerOpenError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a LedgerOpenError');
};

describe('SqliteToolEffectLedger: an explicit path is required', () => {
  it.each([undefined, null, ''])('refuses path %j with InvalidInputError instead of an in-memory ledger', (path) => {
    expect(() => new SqliteToolEffectLedger({ path: path as unknown as string })).toThrow(InvalidInputError);
    expect(() => new SqliteToolEffectLedger({ path: path as unknown as string })).toThrow(/`path` is required/);
  });

  it('refuses a missing options object and malformed options', () => {
    expect(() => new SqliteToolEffectLedger(undefined as never)).toThrow(InvalidInputError);
    const path = join(dir, 'x.db');
    expect(() => new SqliteToolEffectLedger({ path, mode: 'read' as never })).toThrow(/`mode` must be/);
    expect(() => new SqliteToolEffectLedger({ path, busyTimeoutMs: Number.NaN })).toThrow(/busyTimeoutMs/);
    expect(existsSync(path)).toBe(false);
  });

  it("accepts ':memory:' written out", async () => {
    const ledger = new SqliteToolEffectLedger({ path: ':memory:' });
    await ledger.started({ runId: 'r', callId: 'c', tool: 't', idempotencyKey: 'k' });
    expect((await ledger.unresolved('r')).map((row) => row.callId)).toEqual(['c']);
    await ledger.close();
  });
});

describe("SqliteToolEffectLedger: mode 'open' (resume)", () => {
  it('refuses a file that does not exist, and creates nothing', () => {
    const path = join(dir, 'missing.db');
    expect(openError(() => new SqliteToolEffectLedger({ path, mode: 'open' }))).toMatchObject({
      path,
      problem: 'missing_file',
    });
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a 0-byte file (which create mode would take as an empty ledger), leaving it empty', () => {
    const path = join(dir, 'empty.db');
    writeFileSync(path, '');
    expect(openError(() => new SqliteToolEffectLedger({ path, mode: 'open' })).problem).toBe('no_schema');
    expect(statSync(path).size).toBe(0);
  });

  it('refuses a database of another application', () => {
    const path = join(dir, 'foreign.db');
    const db = new Database(path);
    db.exec('CREATE TABLE mine (x INTEGER)');
    db.close();
    expect(openError(() => new SqliteToolEffectLedger({ path, mode: 'open' })).problem).toBe('no_schema');
  });

  it('refuses a file that is not SQLite, in either mode, without changing it', () => {
    const path = join(dir, 'notes.db');
    writeFileSync(path, 'these are my notes, not a database '.repeat(40));
    const before = readFileSync(path);
    expect(openError(() => new SqliteToolEffectLedger({ path, mode: 'open' })).problem).toBe('not_a_database');
    expect(openError(() => new SqliteToolEffectLedger({ path })).problem).toBe('not_a_database');
    expect(readFileSync(path)).toEqual(before);
  });

  it('opens an existing ledger with its rows', async () => {
    const path = join(dir, 'ledger.db');
    const first = new SqliteToolEffectLedger({ path });
    await first.started({ runId: 'r', callId: 'c1', tool: 't', idempotencyKey: 'k' });
    await first.close();
    const reopened = new SqliteToolEffectLedger({ path, mode: 'open' });
    expect((await reopened.unresolved('r')).map((row) => row.callId)).toEqual(['c1']);
    await reopened.close();
  });
});
