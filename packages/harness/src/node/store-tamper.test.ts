import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunState } from '../deferral/run-state.js';
import { ArtifactUnreadableError } from '../errors/artifact-unreadable-error.js';
import { CheckpointUnreadableError } from '../errors/checkpoint-unreadable-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { StorageError } from '../errors/storage-error.js';
import { createFileArtifactStore } from './file-artifact-store.js';
import { createFileCheckpointStore } from './file-checkpoint-store.js';
import { encodeStoreName } from './store-file-name.js';

const root = mkdtempSync(join(tmpdir(), 'tiny-store-tamper-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `d${dirs++}`);
const stateOf = (runId: string, text = 'go'): RunState => ({
  version: 1,
  runId,
  messages: [{ role: 'user', content: text }],
  budgets: { modelCalls: 0, toolCalls: 0 },
  usage: {},
});
const options = (runId: string) => ({ runId, callId: 'c1', name: 'a.txt', mediaType: 'text/plain' });
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);
const canFifo = process.platform !== 'win32';

describe('file stores refuse what they did not write (planted links)', () => {
  it('put never writes through a run folder that is a symbolic link', async () => {
    const dir = freshDir();
    const outside = freshDir();
    mkdirSync(dir, { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(dir, 'victim'));
    const store = createFileArtifactStore(dir, { fsync: false });
    const error = await store.put('hello', options('victim')).catch((caught: unknown) => caught);
    expect(StorageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ENOTDIR' });
    expect(readdirSync(outside)).toEqual([]);
    await expect(store.list('victim')).rejects.toSatisfy(StorageError.isInstance);
  });

  it('load refuses a checkpoint file that is a symbolic link (dangling or to a file outside)', async () => {
    const dir = freshDir();
    const outside = freshDir();
    mkdirSync(dir, { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'secret.json'), JSON.stringify(stateOf('victim', 'SECRET')));
    symlinkSync(join(outside, 'secret.json'), join(dir, 'victim.json'));
    symlinkSync(join(outside, 'nothing.json'), join(dir, 'dangle.json'));
    const store = createFileCheckpointStore(dir, { fsync: false });
    await expect(store.load('victim')).rejects.toSatisfy(CheckpointUnreadableError.isInstance);
    // Listed, like any entry the store cannot read, and refused by load rather than reported absent.
    expect(await store.list()).toEqual(['dangle', 'victim']);
    await expect(store.load('dangle')).rejects.toSatisfy(CheckpointUnreadableError.isInstance);
    await store.delete('victim');
    expect(existsSync(join(outside, 'secret.json'))).toBe(true);
  });

  it('claimResume never writes through a `.claims` symbolic link', async () => {
    const dir = freshDir();
    const outside = freshDir();
    mkdirSync(dir, { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(dir, '.claims'));
    const store = createFileCheckpointStore(dir, { fsync: false });
    await expect(store.claimResume('r', 'k')).rejects.toSatisfy(StorageError.isInstance);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('claimResume on a directory path that is a file is a StorageError, not a raw EEXIST', async () => {
    const file = freshDir();
    writeFileSync(file, 'x');
    const error = await createFileCheckpointStore(file)
      .claimResume('r', 'k')
      .catch((caught: unknown) => caught);
    expect(StorageError.isInstance(error)).toBe(true);
  });

  it('a save racing a delete of the same run never fails (the delete removed its temporary file)', async () => {
    const store = createFileCheckpointStore(freshDir(), { fsync: false });
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (let round = 0; round < 20; round += 1) {
      await Promise.all([
        ...ids.map((id) => store.save(stateOf(id, `${id}-${round}`))),
        ...ids.slice(0, 3).map((id) => store.delete(id)),
      ]);
    }
    for (const id of ids) await store.save(stateOf(id, 'last'));
    expect(await store.list()).toEqual(ids);
  });

  it('saves again after its directory was removed', async () => {
    const dir = freshDir();
    const store = createFileCheckpointStore(dir, { fsync: false });
    await store.save(stateOf('a'));
    rmSync(dir, { recursive: true });
    await store.save(stateOf('b'));
    expect(await store.list()).toEqual(['b']);
  });
});

describe.runIf(canFifo)('file stores never block on a planted FIFO', () => {
  it('load, list (hashed long name) and artifact list return or refuse at once', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    mkfifo(join(dir, 'victim.json'));
    const long = 'L'.repeat(300);
    mkfifo(join(dir, `${encodeStoreName(long)}.json`));
    const store = createFileCheckpointStore(dir, { fsync: false });
    await expect(store.load('victim')).rejects.toSatisfy(CheckpointUnreadableError.isInstance);
    await expect(store.load(long)).rejects.toSatisfy(CheckpointUnreadableError.isInstance);
    expect(await store.list()).toEqual(['victim']);

    const artifactDir = freshDir();
    const artifacts = createFileArtifactStore(artifactDir, { fsync: false, onUnreadable: () => undefined });
    const ref = await artifacts.put('kept', options('r'));
    const other = await artifacts.put('other', options('r'));
    const name = other.uri.split('/').pop() as string;
    const runFolder = join(artifactDir, 'r');
    rmSync(join(runFolder, `${name}.json`));
    mkfifo(join(runFolder, `${name}.json`));
    const scan = await artifacts.scan('r');
    expect(scan.refs).toEqual([ref]);
    expect(scan.unreadable.map((error) => error.uri)).toEqual([other.uri]);
    await expect(artifacts.get(other)).rejects.toSatisfy(ArtifactUnreadableError.isInstance);
  });
});

describe('file artifact list with an unreadable record', () => {
  it('lists every readable artifact and reports the corrupt one to onUnreadable', async () => {
    const dir = freshDir();
    const reported: string[] = [];
    const store = createFileArtifactStore(dir, { fsync: false, onUnreadable: (error) => reported.push(error.uri) });
    const one = await store.put('one', options('r'));
    const two = await store.put('two', options('r'));
    const three = await store.put('three', options('r'));
    writeFileSync(join(dir, 'r', `${two.uri.split('/').pop()}.json`), 'not json');
    expect(await store.list('r')).toEqual([one, three]);
    expect(reported).toEqual([two.uri]);
    const scan = await store.scan('r');
    expect(scan.unreadable).toHaveLength(1);
    expect(ArtifactUnreadableError.isInstance(scan.unreadable[0])).toBe(true);
  });
});

describe('checkpoint saves are checked like loads', () => {
  const cyclic = () => {
    const state = stateOf('r') as RunState & { usage: Record<string, unknown> };
    state.usage.self = state;
    return state;
  };
  const deep = () => {
    const usage: Record<string, unknown> = {};
    let at = usage;
    for (let depth = 0; depth < 20_000; depth += 1) {
      at.a = {};
      at = at.a as Record<string, unknown>;
    }
    return { ...stateOf('r'), usage } as RunState;
  };
  const bad: [string, () => RunState][] = [
    ['cyclic', cyclic],
    ['BigInt', () => ({ ...stateOf('r'), usage: { promptTokens: 1n } }) as unknown as RunState],
    ['20k deep', deep],
    ['invalid shape', () => ({ runId: 'r' }) as unknown as RunState],
    ['toJSON of another run', () => ({ ...stateOf('r'), toJSON: () => stateOf('other') }) as RunState],
  ];
  it.each(bad)('refuses a %s state with InvalidRunStateError and keeps the good checkpoint', async (_label, make) => {
    const store = createFileCheckpointStore(freshDir(), { fsync: false });
    await store.save(stateOf('r', 'good'));
    const error = await store.save(make()).catch((caught: unknown) => caught);
    expect(InvalidRunStateError.isInstance(error)).toBe(true);
    expect((await store.load('r'))?.messages[0]).toEqual({ role: 'user', content: 'good' });
    expect(await store.list()).toEqual(['r']);
  });
});
