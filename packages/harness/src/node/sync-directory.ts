import { type FileHandle, open } from 'node:fs/promises';

/**
 * fsyncs a directory so a rename or unlink in it is durable. A no-op where directories cannot be
 * opened (Windows) or synced (`EINVAL`, `EPERM`, `EISDIR` on some file systems).
 * @internal
 */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    if (process.platform === 'win32') return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR') throw error;
  } finally {
    await handle.close();
  }
}
