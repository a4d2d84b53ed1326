import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalRestateServerError } from '../errors/local-restate-server-error.js';
import { resolveRestateServerBinary, startLocalRestateServer } from './local-restate-server.js';

// Every test gets its own TMPDIR, so "nothing left behind" is checked exactly.
let tmp: string;
let previousTmp: string | undefined;
let previousCwd: string;
beforeEach(() => {
  previousTmp = process.env.TMPDIR;
  previousCwd = process.cwd();
  tmp = mkdtempSync(join(tmpdir(), 'tiny-restate-tmp-'));
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  process.chdir(previousCwd);
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  rmSync(tmp, { recursive: true, force: true });
});

describe('startLocalRestateServer', () => {
  it('finds its binary from the package, whatever the current directory', async () => {
    process.chdir(tmp); // no package.json, no node_modules here
    expect(existsSync(resolveRestateServerBinary())).toBe(true);
    const server = await startLocalRestateServer();
    try {
      expect(server.baseDir.startsWith(tmp)).toBe(true);
      expect((await fetch(`${server.adminUrl}/health`)).ok).toBe(true);
    } finally {
      await server.stop();
    }
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('fails with a typed error and removes its temp dir when the binary cannot be spawned', async () => {
    const error = await startLocalRestateServer({ binaryPath: join(tmp, 'no-such-restate-server') }).catch(
      (caught: unknown) => caught,
    );
    expect(LocalRestateServerError.isInstance(error) && error.problem).toBe('spawn_failed');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('fails with a typed error and removes its temp dir when the server exits before answering', async () => {
    const error = await startLocalRestateServer({ binaryPath: '/bin/false' }).catch((caught: unknown) => caught);
    expect(LocalRestateServerError.isInstance(error) && [error.problem, error.binaryPath]).toEqual([
      'exited',
      '/bin/false',
    ]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('leaves a caller-owned data dir alone on failure', async () => {
    const baseDir = mkdtempSync(join(tmp, 'mine-'));
    const error = await startLocalRestateServer({ binaryPath: '/bin/false', baseDir }).catch(
      (caught: unknown) => caught,
    );
    expect(LocalRestateServerError.isInstance(error)).toBe(true);
    expect(existsSync(baseDir)).toBe(true);
    expect(readdirSync(tmp)).toHaveLength(1); // the caller's dir, and no temp dir of our own
  });
});
