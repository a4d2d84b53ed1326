import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError, TinyError } from '@tiny/tools';
import type { CheckpointStore, ResumeClaimStore } from '../checkpoint/checkpoint-store.js';
import { checkedClaim, checkedRunId, checkpointText, readRunState } from '../checkpoint/in-memory-checkpoint-store.js';
import { CheckpointUnreadableError } from '../errors/checkpoint-unreadable-error.js';
import { StorageError } from '../errors/storage-error.js';
import { claimResumeFile } from './file-resume-claim.js';
import { decodeStoreName, encodeStoreName, isHashedStoreName } from './store-file-name.js';
import { readRegularFile } from './store-fs.js';
import { syncDirectory } from './sync-directory.js';

const SUFFIX = '.json';
const TEMP = '.tmp';

/** Options for {@link createFileCheckpointStore}. */
export interface FileCheckpointStoreOptions {
  /**
   * fsync the file and its directory on every save (default true). Off, a save survives a killed
   * process but not an OS crash or power cut; it is still atomic.
   */
  readonly fsync?: boolean | undefined;
}

/**
 * A {@link CheckpointStore} with one JSON file per run in `dir` (created when missing), the plain
 * `serializeRunState` text. The file name encodes the run id so that no id can name another id's
 * file or a path outside `dir`: lower-case letters, digits, `-` and `_` stay as they are
 * (`run-1.json`); any other character, upper-case letters, `.`, `/`, `\`, NUL and lone surrogates
 * included, is written as `@` and four hex digits, so names survive case-insensitive file systems
 * and never collide; an id whose name would pass 150 characters gets a readable head and its
 * SHA-256 instead. A save writes a
 * temporary file beside it, fsyncs it, renames it over the old one and fsyncs the directory, so a
 * process killed at any point leaves the previous state or the new one, never a torn file, and the
 * new one survives a power cut once `save` resolves. Temporary files of killed saves
 * (`.<name>.json.<random>.tmp`) are never read; `delete` removes the run's own. Several processes may
 * share `dir`; the last save of a run wins. `claimResume` (a `ResumeClaimStore`, for
 * `AgentHarnessOptions.resumeClaims`) creates a claim file in `dir/.claims/` exclusively (`wx`), so of
 * all the processes sharing `dir` exactly one resumes a paused state. Node.js only (`node:fs`).
 *
 * ```ts
 * // createFileCheckpointStore is exported by `@tiny/harness/node`
 * const store = createFileCheckpointStore('./checkpoints');
 * const run = await harness.invoke({ runId }, messages, { onCheckpoint: (state) => store.save(state) });
 * ```
 *
 * @throws {InvalidInputError} when `dir` is not a non-empty string; from a method, (as a rejection)
 * when the run id is not a non-empty string. `load` rejects with `CheckpointUnreadableError` when a
 * file holds no valid state; a failing file system (full disk, read-only, no permission) rejects
 * with {@link StorageError}.
 */
export function createFileCheckpointStore(
  dir: string,
  options: FileCheckpointStoreOptions = {},
): CheckpointStore & ResumeClaimStore {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidInputError({
      entryPoint: 'createFileCheckpointStore',
      reason: 'the directory must be a non-empty string',
    });
  }
  const fsync = options.fsync ?? true;
  // Made on every write (one cheap syscall when it exists), so a directory removed later is made again.
  const ensureDir = () => mkdir(dir, { recursive: true });
  const fileOf = (entryPoint: string, runId: unknown): string =>
    `${encodeStoreName(checkedRunId(entryPoint, runId))}${SUFFIX}`;
  /** A file-system failure as a {@link StorageError}; errors of this package pass through. */
  const failed = (operation: string, error: unknown): Error =>
    TinyError.isInstance(error) ? error : new StorageError({ operation, location: dir, cause: error });
  /** The run id of a saved file name, read from the file for a hashed (long) name. */
  const runIdOf = async (entry: string): Promise<string | undefined> => {
    if (!entry.endsWith(SUFFIX)) return undefined;
    const name = entry.slice(0, -SUFFIX.length);
    const decoded = decodeStoreName(name);
    if (decoded !== undefined || !isHashedStoreName(name)) return decoded;
    try {
      const bytes = await readRegularFile(join(dir, entry));
      if (bytes === undefined) return undefined;
      const runId = (JSON.parse(bytes.toString('utf8')) as { runId?: unknown } | null)?.runId;
      return typeof runId === 'string' && encodeStoreName(runId) === name ? runId : undefined;
    } catch {
      return undefined; // removed meanwhile, or unreadable (a FIFO, a link, bad JSON): no id to list
    }
  };

  return {
    async save(state) {
      const { runId, text } = checkpointText('FileCheckpointStore.save', state);
      const file = `${encodeStoreName(runId)}${SUFFIX}`;
      const attempt = async () => {
        await ensureDir();
        const temp = join(dir, `.${file}.${randomBytes(6).toString('hex')}${TEMP}`);
        let handle: FileHandle | undefined = await open(temp, 'wx');
        try {
          await handle.writeFile(text, 'utf8');
          if (fsync) await handle.sync();
          await handle.close();
          handle = undefined;
          await rename(temp, join(dir, file));
        } catch (error) {
          await handle?.close().catch(() => undefined);
          await unlink(temp).catch(() => undefined);
          throw error;
        }
      };
      try {
        // A concurrent `delete` of the run removes its temporary files, ours included, and the
        // directory may be removed meanwhile: then the save is made again (it lands after the
        // delete), a few times at most.
        for (let tries = 1; ; tries += 1) {
          try {
            await attempt();
            break;
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || tries >= 3) throw error;
          }
        }
        if (fsync) await syncDirectory(dir);
      } catch (error) {
        throw failed('FileCheckpointStore.save', error);
      }
    },

    async load(runId) {
      const file = fileOf('FileCheckpointStore.load', runId);
      let bytes: Buffer | undefined;
      try {
        bytes = await readRegularFile(join(dir, file));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTREG') {
          const reason = (error as Error).message;
          throw new CheckpointUnreadableError({ runId, location: join(dir, file), reason, cause: error });
        }
        throw failed('FileCheckpointStore.load', error);
      }
      if (bytes === undefined) return undefined;
      return readRunState(bytes.toString('utf8'), runId, join(dir, file));
    },

    async list() {
      let entries: string[];
      try {
        entries = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw failed('FileCheckpointStore.list', error);
      }
      const runIds = await Promise.all(entries.map(runIdOf));
      return runIds.filter((runId) => runId !== undefined).sort();
    },

    async delete(runId) {
      const file = fileOf('FileCheckpointStore.delete', runId);
      await unlink(join(dir, file)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw failed('FileCheckpointStore.delete', error);
      });
      const leftovers = (await readdir(dir).catch(() => [] as string[])).filter(
        (entry) => entry.startsWith(`.${file}.`) && entry.endsWith(TEMP),
      );
      await Promise.all(leftovers.map((entry) => unlink(join(dir, entry)).catch(() => undefined)));
      if (fsync) await syncDirectory(dir).catch(() => undefined);
    },

    async claimResume(runId, claim) {
      const id = checkedRunId('FileCheckpointStore.claimResume', runId);
      const checked = checkedClaim('FileCheckpointStore.claimResume', claim);
      try {
        await ensureDir();
        return await claimResumeFile(dir, id, checked, fsync);
      } catch (error) {
        throw failed('FileCheckpointStore.claimResume', error);
      }
    },
  };
}
