import { createHash } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDirectory } from './sync-directory.js';

/** The folder of claim files inside a file store's directory (hidden: `list` never reads it). */
export const CLAIMS_DIR = '.claims';

/**
 * Records `claim` for `runId` in `<dir>/.claims/`, atomically across processes: the claim file (the
 * SHA-256 of the run id's length, its UTF-16 code units and the claim's, so any id fits a file name) is created with `wx` (exclusive create),
 * so exactly one caller ever creates it. `true` for that caller, `false` for every later one.
 * With `fsync`, the file and the folder are synced before it resolves, so a claim outlives a power cut.
 * @internal
 */
export async function claimResumeFile(dir: string, runId: string, claim: string, fsync: boolean): Promise<boolean> {
  const folder = join(dir, CLAIMS_DIR);
  await mkdir(folder, { recursive: true });
  // Length-prefixed UTF-16 code units: injective for every pair of strings, lone surrogates included.
  const name = createHash('sha256')
    .update(`${runId.length}:`)
    .update(Buffer.from(runId, 'utf16le'))
    .update(Buffer.from(claim, 'utf16le'))
    .digest('hex');
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(join(folder, `${name}.claim`), 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify({ runId, claim, claimedAt: new Date().toISOString() })}\n`, 'utf8');
    if (fsync) await handle.sync();
  } finally {
    await handle.close();
  }
  if (fsync) await syncDirectory(folder);
  return true;
}
