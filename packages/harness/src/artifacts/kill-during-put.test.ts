import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileArtifactStore } from '../node/file-artifact-store.js';
import type { ArtifactRef } from './artifact-store.js';

const child = fileURLToPath(new URL('./__fixtures__/put-child.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tiny-artifact-kill-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SIZE = 8 * 1024 * 1024;
/** Trials at least; more (up to MAX_TRIALS) until one kill has landed inside a put. */
const TRIALS = 6;
const MAX_TRIALS = 24;

/** Starts the child, waits until it begins writing, lets it run `delayMs`, then SIGKILLs it. */
async function killDuringPut(dir: string, runId: string, delayMs: number): Promise<ArtifactRef[]> {
  const proc: ChildProcess = spawn(process.execPath, [child, dir, runId, String(SIZE), '50'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  proc.stderr?.on('data', (chunk) => {
    errors += String(chunk);
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    proc.stdout?.on('data', (chunk) => {
      output += String(chunk);
      if (output.startsWith('ready\n')) resolve();
    });
    proc.on('exit', () => reject(new Error(`child exited before it was killed: ${errors}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  proc.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return output
    .split('\n')
    .slice(1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as ArtifactRef);
}

describe('a process killed with SIGKILL during put (file system store)', () => {
  it('leaves no half artifact listed or readable, and every returned reference intact', async () => {
    let interrupted = 0;
    for (let trial = 0; trial < TRIALS || (interrupted === 0 && trial < MAX_TRIALS); trial++) {
      const dir = join(root, `trial-${trial}`);
      const runId = `run-${trial}`;
      const reported = await killDuringPut(dir, runId, 40 + (trial % 12) * 45);
      const store = createFileArtifactStore(dir);
      const listed = await store.list(runId);
      // Everything the child was told is stored is listed; the listing may hold one more whose
      // record landed before the child could print it, never a partial one.
      expect(listed.slice(0, reported.length)).toEqual(reported);
      expect(listed.length - reported.length).toBeLessThanOrEqual(1);
      for (const ref of listed) {
        const bytes = (await store.get(ref)) as Uint8Array;
        expect(bytes.byteLength).toBe(SIZE);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(ref.sha256);
      }
      // Leftovers of the interrupted put (a temporary file, or bytes without a record) are never listed.
      // A kill before the first put leaves no run folder at all.
      const entries = existsSync(join(dir, runId)) ? readdirSync(join(dir, runId)) : [];
      const records = new Set(entries.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5)));
      const leftovers = entries.filter(
        (name) => name.endsWith('.tmp') || (name.endsWith('.bin') && !records.has(name.slice(0, -4))),
      );
      if (leftovers.length > 0) interrupted += 1;
      for (const name of leftovers.filter((entry) => entry.endsWith('.bin'))) {
        const uri = `tiny-artifact://${encodeURIComponent(runId)}/${name.slice(0, -4)}`;
        expect(await store.get(uri)).toBeUndefined();
      }
    }
    // The kill landed inside a put (leaving a temporary or unrecorded file) in at least one trial.
    expect(interrupted).toBeGreaterThan(0);
  }, 120_000);
});
