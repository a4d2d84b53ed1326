import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { RunState } from '../deferral/run-state.js';

/**
 * ENOSPC and EROFS need a full or read-only file system, which an unprivileged test cannot mount:
 * the failure is injected at the stores' fs boundary (`node:fs/promises`), everything else is real.
 */
const failure: { code?: string } = {};
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const fail = (syscall: string) =>
    Object.assign(new Error(`${failure.code}: injected, ${syscall}`), { code: failure.code, syscall });
  return {
    ...real,
    mkdir: (async (...args: Parameters<typeof real.mkdir>) => {
      if (failure.code === 'EROFS') throw fail('mkdir');
      return real.mkdir(...args);
    }) as typeof real.mkdir,
    open: (async (...args: Parameters<typeof real.open>) => {
      if (failure.code === 'EROFS') throw fail('open');
      const handle = await real.open(...args);
      if (failure.code !== 'ENOSPC') return handle;
      return Object.assign(Object.create(handle), {
        writeFile: async () => {
          throw fail('write');
        },
        close: () => handle.close(),
      });
    }) as typeof real.open,
  };
});

// The suite runs without per-file isolation (vitest.config.ts): another file may have loaded the stores
// with the real `node:fs/promises` in this worker already, so they are loaded afresh, after the mock.
vi.resetModules();
const { StorageError } = await import('../errors/storage-error.js');
const { createFileArtifactStore } = await import('./file-artifact-store.js');
const { createFileCheckpointStore } = await import('./file-checkpoint-store.js');

const root = mkdtempSync(join(tmpdir(), 'tiny-storage-failures-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  failure.code = undefined;
});
let dirs = 0;
const freshDir = () => join(root, `d${dirs++}`);
const stateOf = (runId: string, text: string): RunState => ({
  version: 1,
  runId,
  messages: [{ role: 'user', content: text }],
  budgets: { modelCalls: 0, toolCalls: 0 },
  usage: {},
});

describe.each(['ENOSPC', 'EROFS'])('file stores on %s', (code) => {
  it('reject claimResume with StorageError without using up the claim: the retry gets it', async () => {
    const dir = freshDir();
    const store = createFileCheckpointStore(dir, { fsync: false });
    await store.claimResume('warm', 'x');
    failure.code = code;
    const error = await store.claimResume('run-1', 'resume-1').catch((caught: unknown) => caught);
    failure.code = undefined;
    expect(StorageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'FileCheckpointStore.claimResume', code });
    expect(await store.claimResume('run-1', 'resume-1')).toBe(true);
    expect(await store.claimResume('run-1', 'resume-1')).toBe(false);
  });

  it('reject save with StorageError, keeping the saved state and leaving no temporary file', async () => {
    const dir = freshDir();
    const store = createFileCheckpointStore(dir, { fsync: false });
    await store.save(stateOf('run-1', 'kept'));
    failure.code = code;
    const error = await store.save(stateOf('run-1', 'lost')).catch((caught: unknown) => caught);
    failure.code = undefined;
    expect(StorageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'FileCheckpointStore.save', location: dir, code });
    expect((await store.load('run-1'))?.messages[0]).toEqual({ role: 'user', content: 'kept' });
    expect(readdirSync(dir)).toEqual(['run-1.json']);
  });

  it('reject put with StorageError, keeping earlier artifacts and listing nothing half written', async () => {
    const dir = freshDir();
    const store = createFileArtifactStore(dir, { fsync: false });
    const options = { mediaType: 'text/plain', name: 'a.txt', runId: 'run-1', callId: 'c1' };
    const kept = await store.put('kept', options);
    failure.code = code;
    const error = await store.put('lost', options).catch((caught: unknown) => caught);
    failure.code = undefined;
    expect(StorageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'FileArtifactStore.put', code });
    expect(await store.list('run-1')).toEqual([kept]);
    expect(new TextDecoder().decode(await store.get(kept))).toBe('kept');
    expect(readdirSync(join(dir, 'run-1')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
