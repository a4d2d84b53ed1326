import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';

/** Opens for reading without following a final symbolic link and without blocking on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The error a store gives for an entry it did not write and will not follow: a symbolic link, a
 * FIFO, a device, a socket or a directory where a regular file (or a directory) belongs. Carries
 * `code: 'ENOTREG'` (or `ENOTDIR`), so `StorageError.code` names it.
 * @internal
 */
export function notRegular(path: string, what: string, expected: 'a regular file' | 'a directory'): Error {
  return Object.assign(new Error(`${path} is ${what}, not ${expected}; the store does not follow or read it`), {
    code: expected === 'a directory' ? 'ENOTDIR' : 'ENOTREG',
    path,
  });
}

/** What an lstat/fstat result is, in words. @internal */
export function kindOf(stats: {
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isDirectory(): boolean;
  isFile(): boolean;
}): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFile()) return 'a regular file';
  return 'a device or socket';
}

/**
 * Reads a file a store wrote, refusing anything else: the open does not follow a symbolic link
 * (`O_NOFOLLOW`: a planted link fails with `ELOOP`) and does not wait for a writer (`O_NONBLOCK`: a
 * planted FIFO opens at once), then `fstat` on the open handle must show a regular file, so neither
 * a link to a file outside the store nor a FIFO, device or directory is ever read. `undefined` when
 * the file does not exist. A symbolic link is reported as {@link notRegular} (`ENOTREG`).
 * @internal
 */
export async function readRegularFile(path: string): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // ELOOP (Linux, macOS) or EMLINK (FreeBSD): the final component is a symbolic link.
    if (code === 'ELOOP' || code === 'EMLINK') throw notRegular(path, 'a symbolic link', 'a regular file');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(path, kindOf(stats), 'a regular file');
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `path` (and its parents) when missing, then checks with `lstat` that it is a real
 * directory, not a symbolic link planted to send the store's writes elsewhere: refused with
 * {@link notRegular} (`ENOTDIR`).
 * @internal
 */
export async function ensureRealDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
  const stats = await lstat(path);
  if (!stats.isDirectory()) throw notRegular(path, kindOf(stats), 'a directory');
}
