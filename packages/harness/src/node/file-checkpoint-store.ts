import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '@tiny/tools';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { checkedRunId, readRunState } from '../checkpoint/in-memory-checkpoint-store.js';
import { serializeRunState } from '../deferral/run-state.js';
import { syncDirectory } from './sync-directory.js';

const SUFFIX = '.json';
const TEMP = '.tmp';
/** Longest encoded run id: file names stay below the usual 255-byte limit with room for the suffixes. */
const MAX_NAME = 200;

/** Options for {@link createFileCheckpointStore}. */
export interface FileCheckpointStoreOptions {
  /**
   * fsync the file and its directory on every save (default true). Off, a save survives a killed
   * process but not an OS crash or power cut; it is still atomic.
   */
  readonly fsync?: boolean | undefined;
}

/**
 * A {@link CheckpointStore} with one JSON file per run in `dir` (created when missing), named after
 * the URL-encoded run id (`<runId>.json`, the plain `serializeRunState` text). A save writes a
 * temporary file beside it, fsyncs it, renames it over the old one and fsyncs the directory, so a
 * process killed at any point leaves the previous state or the new one, never a torn file, and the
 * new one survives a power cut once `save` resolves. Temporary files of killed saves
 * (`.<runId>.json.<random>.tmp`) are never read; `delete` removes the run's own. Several processes may
 * share `dir`; the last save of a run wins. Node.js only (`node:fs`).
 *
 * ```ts
 * // createFileCheckpointStore is exported by `@tiny/harness/node`
 * const store = createFileCheckpointStore('./checkpoints');
 * const run = await harness.invoke({ runId }, messages, { onCheckpoint: (state) => store.save(state) });
 * ```
 *
 * @throws {InvalidInputError} when `dir` is not a non-empty string; from a method, (as a rejection)
 * when the run id is empty or too long for a file name (more than 200 characters once encoded).
 * `load` rejects with `CheckpointUnreadableError` when a file holds no valid state; file-system
 * errors reject as they are.
 */
export function createFileCheckpointStore(dir: string, options: FileCheckpointStoreOptions = {}): CheckpointStore {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidInputError({
      entryPoint: 'createFileCheckpointStore',
      reason: 'the directory must be a non-empty string',
    });
  }
  const fsync = options.fsync ?? true;
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => {
    ready ??= mkdir(dir, { recursive: true }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  const fileOf = (entryPoint: string, runId: unknown): string => {
    const name = encodeURIComponent(checkedRunId(entryPoint, runId));
    if (name.length > MAX_NAME) {
      throw new InvalidInputError({
        entryPoint,
        reason: `the run id is too long for a file name (${name.length} characters encoded, at most ${MAX_NAME})`,
      });
    }
    return `${name}${SUFFIX}`;
  };

  return {
    async save(state) {
      const file = fileOf('FileCheckpointStore.save', state?.runId);
      const text = serializeRunState(state);
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
      if (fsync) await syncDirectory(dir);
    },

    async load(runId) {
      const file = fileOf('FileCheckpointStore.load', runId);
      let text: string;
      try {
        text = await readFile(join(dir, file), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      return readRunState(text, runId, join(dir, file));
    },

    async list() {
      let entries: string[];
      try {
        entries = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return entries
        .filter((entry) => entry.endsWith(SUFFIX) && !entry.startsWith('.'))
        .flatMap((entry) => {
          try {
            return [decodeURIComponent(entry.slice(0, -SUFFIX.length))];
          } catch {
            return []; // not a name this store wrote
          }
        })
        .sort();
    },

    async delete(runId) {
      const file = fileOf('FileCheckpointStore.delete', runId);
      await unlink(join(dir, file)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      const leftovers = (await readdir(dir).catch(() => [] as string[])).filter(
        (entry) => entry.startsWith(`.${file}.`) && entry.endsWith(TEMP),
      );
      await Promise.all(leftovers.map((entry) => unlink(join(dir, entry)).catch(() => undefined)));
      if (fsync) await syncDirectory(dir).catch(() => undefined);
    },
  };
}
