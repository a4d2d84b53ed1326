import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '@tiny/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { type RunState, serializeRunState } from '../deferral/run-state.js';
import { CheckpointUnreadableError } from '../errors/checkpoint-unreadable-error.js';
import { StorageError } from '../errors/storage-error.js';
import { createFileCheckpointStore } from './file-checkpoint-store.js';

const root = mkdtempSync(join(tmpdir(), 'tiny-checkpoints-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `d${dirs++}`, 'nested');

const stateOf = (runId: string, text = 'go'): RunState => ({
  version: 1,
  runId,
  messages: [
    { role: 'user', content: text },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'append', arguments: '{}' }] },
  ],
  budgets: { modelCalls: 1, toolCalls: 0 },
  usage: {},
});

describe('createFileCheckpointStore', () => {
  it('saves atomically into a created directory, loads, lists and deletes by run id', async () => {
    const dir = freshDir();
    const store = createFileCheckpointStore(dir);
    expect(await store.list()).toEqual([]);
    expect(await store.load('r/1')).toBeUndefined();
    await store.save(stateOf('r/1', 'first'));
    await store.save(stateOf('r/1', 'second'));
    await store.save(stateOf('b 2'));
    expect((await store.load('r/1'))?.messages[0]).toEqual({ role: 'user', content: 'second' });
    expect(await store.list()).toEqual(['b 2', 'r/1']);
    // One plain serializeRunState file per run; no temporary file stays behind.
    expect(readdirSync(dir).sort()).toEqual(['b@00202.json', 'r@002f1.json']);
    expect(readFileSync(join(dir, 'r@002f1.json'), 'utf8')).toBe(serializeRunState(stateOf('r/1', 'second')));
    await store.delete('r/1');
    await store.delete('r/1');
    expect(await store.list()).toEqual(['b 2']);
    expect(await store.load('r/1')).toBeUndefined();
  });

  it('never reads the temporary file of a killed save, and delete removes it', async () => {
    const dir = freshDir();
    const store = createFileCheckpointStore(dir, { fsync: false });
    await store.save(stateOf('r1'));
    // What a save killed before its rename leaves: a torn temporary file beside the good one.
    writeFileSync(join(dir, '.r1.json.0a1b2c3d4e5f.tmp'), serializeRunState(stateOf('r1')).slice(0, 40));
    expect(await store.list()).toEqual(['r1']);
    expect((await store.load('r1'))?.runId).toBe('r1');
    await store.delete('r1');
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['torn JSON', (text: string) => text.slice(0, text.length / 2), /not valid JSON/],
    ['an empty file', () => '', /not valid JSON/],
    ['another schema version', (text: string) => text.replace('"version":1', '"version":99'), /schema version 99/],
    ['the state of another run', (text: string) => text.replace('"runId":"r1"', '"runId":"r2"'), /run "r2"/],
  ])('rejects %s with CheckpointUnreadableError and leaves the file as it was', async (_name, damage, reason) => {
    const dir = freshDir();
    const store = createFileCheckpointStore(dir);
    await store.save(stateOf('r1'));
    const file = join(dir, 'r1.json');
    const damaged = damage(readFileSync(file, 'utf8'));
    writeFileSync(file, damaged);
    const error = await store.load('r1').catch((caught: unknown) => caught);
    expect(CheckpointUnreadableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ runId: 'r1', location: file, reason: expect.stringMatching(reason) });
    expect(readFileSync(file, 'utf8')).toBe(damaged);
  });

  it('refuses a missing directory and empty run ids with InvalidInputError', async () => {
    expect(() => createFileCheckpointStore('')).toThrow(InvalidInputError);
    expect(() => createFileCheckpointStore(undefined as unknown as string)).toThrow(InvalidInputError);
    const store = createFileCheckpointStore(freshDir());
    await expect(store.load('')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(store.save(stateOf(''))).rejects.toBeInstanceOf(InvalidInputError);
    expect(await store.list()).toEqual([]);
  });

  it('keeps every odd run id in its own file inside the directory, listed exactly', async () => {
    const parent = freshDir();
    const dir = join(parent, 'store');
    const store = createFileCheckpointStore(dir, { fsync: false });
    const ids = [
      '..',
      '.',
      '.hidden',
      'a',
      'A',
      'a.json.x',
      'CON',
      'nul',
      'x.',
      'x ',
      '/',
      '\\',
      '\0',
      '\uD800',
      'é',
      'e\u0301',
      'x'.repeat(300),
      `${'x'.repeat(300)}y`,
    ];
    for (const id of ids) await store.save(stateOf(id));
    expect(readdirSync(parent)).toEqual(['store']);
    expect(await store.list()).toEqual([...ids].sort());
    for (const id of ids) expect((await store.load(id))?.runId).toBe(id);
    for (const name of readdirSync(dir)) {
      expect(name).toMatch(/^[a-z0-9_@=-]+\.json$/);
      expect(Buffer.byteLength(name) + '.0a1b2c3d4e5f.tmp'.length + 1).toBeLessThan(255);
    }
    // A killed save of `a.json.x` leaves its temporary file; deleting `a` must not touch it.
    const temp = `.${readdirSync(dir).find((name) => name.startsWith('a@002e'))}.0a1b2c3d4e5f.tmp`;
    writeFileSync(join(dir, temp), 'torn');
    await store.delete('a');
    expect(readdirSync(dir)).toContain(temp);
    expect(await store.list()).toEqual(ids.filter((id) => id !== 'a').sort());
    await store.delete('a.json.x');
    expect(readdirSync(dir)).not.toContain(temp);
  });

  it('rejects with StorageError when the directory cannot be written', async () => {
    const dir = freshDir();
    const store = createFileCheckpointStore(dir, { fsync: false });
    await store.save(stateOf('r1'));
    // A file where the store's directory should be: every write fails with ENOTDIR, as EROFS would.
    const blocked = createFileCheckpointStore(join(dir, 'r1.json'), { fsync: false });
    const error = await blocked.save(stateOf('r2')).catch((caught: unknown) => caught);
    expect(StorageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'FileCheckpointStore.save' });
    expect((await store.load('r1'))?.runId).toBe('r1');
  });
});

describe('InMemoryCheckpointStore', () => {
  it('keeps a copy, so changing a saved state changes nothing stored', async () => {
    const store = new InMemoryCheckpointStore();
    const state = stateOf('r1');
    await store.save(state);
    (state.messages as unknown[]).push({ role: 'user', content: 'later' });
    expect((await store.load('r1'))?.messages).toHaveLength(2);
    expect(await store.list()).toEqual(['r1']);
    await store.delete('r1');
    expect(await store.load('r1')).toBeUndefined();
  });
});
