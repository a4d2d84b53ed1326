import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '@tiny/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { createFileCheckpointStore } from './file-checkpoint-store.js';

const root = mkdtempSync(join(tmpdir(), 'tiny-claims-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;

describe('claimResume on the shipped stores', () => {
  it('a file claim is granted once across store instances on one directory, and list ignores claims', async () => {
    const dir = join(root, `d${dirs++}`);
    const one = createFileCheckpointStore(dir);
    const two = createFileCheckpointStore(dir);
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => (n % 2 ? one : two).claimResume('r/1', 'k')));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await two.claimResume('r/1', 'other')).toBe(true);
    expect(await one.list()).toEqual([]);
    expect(readdirSync(join(dir, '.claims'))).toHaveLength(2);
  });

  it('tells apart ids that differ only in a lone surrogate or where the run id ends', async () => {
    const store = createFileCheckpointStore(join(root, `d${dirs++}`));
    expect(await store.claimResume('a\ud800', 'k')).toBe(true);
    expect(await store.claimResume('a\udc00', 'k')).toBe(true);
    expect(await store.claimResume('ab', 'c')).toBe(true);
    expect(await store.claimResume('a', 'bc')).toBe(true);
  });

  it('a claim killed half-way (only its temporary file written) does not count', async () => {
    const dir = join(root, `d${dirs++}`);
    const store = createFileCheckpointStore(dir, { fsync: false });
    await store.claimResume('warm', 'x');
    const [done] = readdirSync(join(dir, '.claims'));
    // What a process killed before its link leaves: a temporary file, empty or partial.
    writeFileSync(join(dir, '.claims', `.${'0'.repeat(64)}.abcdef.tmp`), '');
    expect(await store.claimResume('r', 'k')).toBe(true);
    expect(await store.claimResume('r', 'k')).toBe(false);
    expect(readdirSync(join(dir, '.claims')).filter((name) => !name.startsWith('.'))).toHaveLength(2);
    expect(readFileSync(join(dir, '.claims', done as string), 'utf8')).toContain('"runId":"warm"');
  });

  it('refuses an empty run id or claim', async () => {
    for (const store of [createFileCheckpointStore(join(root, `d${dirs++}`)), new InMemoryCheckpointStore()]) {
      await expect(store.claimResume('', 'k')).rejects.toThrow(InvalidInputError);
      await expect(store.claimResume('r', '')).rejects.toThrow(InvalidInputError);
    }
  });
});
