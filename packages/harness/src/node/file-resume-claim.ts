import { createHash, randomBytes } from 'node:crypto';
import { link, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureRealDirectory } from './store-fs.js';
import { syncDirectory } from './sync-directory.js';

/** The folder of claim files inside a file store's directory (hidden: `list` never reads it). */
export const CLAIMS_DIR = '.claims';

/** Codes of file systems that cannot make hard links (FAT, some network and FUSE mounts). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Records `claim` for `runId` in `<dir>/.claims/`, atomically across processes and all or nothing:
 * the claim file's name is the SHA-256 of the run id's length, its UTF-16 code units and the
 * claim's (so any id fits a file name). The claim is first written completely to a temporary file
 * (`.<name>.<random>.tmp`, fsynced with `fsync`), then hard-linked to its name: `link` never
 * replaces an existing file, so exactly one caller creates the claim (`true`), every later one
 * gets `EEXIST` (`false`). A claim that fails anywhere (full disk, I/O error, a failed fsync of
 * the folder, a killed process) leaves no claim file, only possibly a temporary one that never counts, so the same claim can be
 * made again once the failure is gone. Where hard links are not supported, the claim file is
 * created with `wx` and removed again when writing it fails. A `.claims` that is a symbolic link
 * (or not a directory) is refused. With `fsync`, the folder is synced before it resolves, so a
 * claim outlives a power cut.
 * @internal
 */
export async function claimResumeFile(dir: string, runId: string, claim: string, fsync: boolean): Promise<boolean> {
  const folder = join(dir, CLAIMS_DIR);
  await ensureRealDirectory(folder);
  // Length-prefixed UTF-16 code units: injective for every pair of strings, lone surrogates included.
  const name = createHash('sha256')
    .update(`${runId.length}:`)
    .update(Buffer.from(runId, 'utf16le'))
    .update(Buffer.from(claim, 'utf16le'))
    .digest('hex');
  const target = join(folder, `${name}.claim`);
  const content = `${JSON.stringify({ runId, claim, claimedAt: new Date().toISOString() })}\n`;
  const temp = join(folder, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  await writeComplete(temp, content, fsync);
  let created: boolean;
  try {
    await link(temp, target);
    created = true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') created = false;
    else if (code !== undefined && NO_LINKS.has(code)) created = await claimWithoutLink(target, content, fsync);
    else {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }
  await unlink(temp).catch(() => undefined);
  if (created && fsync) {
    try {
      await syncDirectory(folder);
    } catch (error) {
      // Not known to be durable, so not granted: removed, so that a retry can still make it.
      await unlink(target).catch(() => undefined);
      throw error;
    }
  }
  return created;
}

/** Writes `content` to a new file `path` (exclusive create), fsynced with `fsync`; removed again on failure. */
async function writeComplete(path: string, content: string, fsync: boolean): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(content, 'utf8');
    if (fsync) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/** The claim made with an exclusive create, for file systems without hard links. */
async function claimWithoutLink(target: string, content: string, fsync: boolean): Promise<boolean> {
  try {
    await writeComplete(target, content, fsync);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  return true;
}
