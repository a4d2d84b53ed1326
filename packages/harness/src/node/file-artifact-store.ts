import { randomBytes } from 'node:crypto';
import { type FileHandle, lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError, TinyError } from '@tiny/tools';
import type { ArtifactData, ArtifactPutOptions, ArtifactRef, ArtifactStore } from '../artifacts/artifact-store.js';
import {
  formatArtifactUri as formatUri,
  parseArtifactUri,
  prepareArtifact,
  refUri,
  verifyArtifactBytes,
} from '../artifacts/artifact-uri.js';
import { ArtifactUnreadableError } from '../errors/artifact-unreadable-error.js';
import { StorageError } from '../errors/storage-error.js';
import { decodeStoreName, encodeStoreName } from './store-file-name.js';
import { ensureRealDirectory, kindOf, notRegular, readRegularFile } from './store-fs.js';
import { syncDirectory } from './sync-directory.js';

const DATA = '.bin';
const RECORD = '.json';
const TEMP = '.tmp';

/** Options for {@link createFileArtifactStore}. */
export interface FileArtifactStoreOptions {
  /**
   * fsync each file and its directory on every `put` (default true). Off, a stored artifact survives
   * a killed process but not an OS crash or power cut; `put` is still atomic.
   */
  readonly fsync?: boolean | undefined;
  /**
   * Called by `list` for each stored artifact of the run it cannot read (a corrupt or foreign
   * record, a symbolic link or FIFO in its place): `list` still returns every readable one.
   * Default: a process warning (`process.emitWarning`) per unreadable artifact. `scan` returns them.
   */
  readonly onUnreadable?: ((error: ArtifactUnreadableError) => void) | undefined;
}

/** What {@link FileArtifactStore.scan} found in a run's folder. */
export interface ArtifactScan {
  /** The readable artifacts, in the order they were stored (what `list` returns). */
  readonly refs: ArtifactRef[];
  /** One error per stored artifact whose record cannot be read, by URI. */
  readonly unreadable: ArtifactUnreadableError[];
}

/** The store {@link createFileArtifactStore} returns: an {@link ArtifactStore} with {@link FileArtifactStore.scan}. */
export interface FileArtifactStore extends ArtifactStore {
  /**
   * The run's artifacts, split into the readable ones and the unreadable ones: `list` returns
   * `refs` and reports `unreadable` to `onUnreadable`; `scan` returns both, for checks and repair.
   */
  scan(runId: string): Promise<ArtifactScan>;
}

interface StoredRecord {
  readonly ref: ArtifactRef;
  readonly storedAt: number;
}

/**
 * An {@link ArtifactStore} on the file system: one directory per run in `dir`, holding `<id>.bin`
 * (the bytes) and `<id>.json` (the reference). Run ids and ids are encoded into names that cannot
 * name another id's files or a path outside `dir`, as in `createFileCheckpointStore`: lower-case
 * letters, digits, `-` and `_` stay, any other UTF-16 unit becomes `@` and four hex digits, long
 * ids get a head and their SHA-256. A `put` writes each file as
 * a temporary file, fsyncs it and renames it into place, data first, then the record, then fsyncs
 * the directory: an artifact exists (for `get` and `list`) only once its record does, and its
 * record exists only after the complete bytes. A process killed mid-`put` leaves at most a
 * temporary file (`.<id>.<random>.tmp`) or an unreferenced `.bin`, never a listed or readable half
 * artifact. Every `get` checks the bytes against the size and SHA-256 recorded at `put` and, for a
 * reference (not a bare URI), against the reference's own. Node.js only (`node:fs`).
 *
 * ```ts
 * // createFileArtifactStore is exported by `@tiny/harness/node`
 * const harness = new AgentHarness({ model, tools, artifacts: createFileArtifactStore('./artifacts') });
 * ```
 *
 * @throws {InvalidInputError} when `dir` is not a non-empty string; from a method (as a rejection)
 * on malformed arguments (a run id with a lone surrogate, which no artifact URI can hold, included).
 * `get` rejects with {@link ArtifactUnreadableError} when stored bytes do not match their record or
 * the reference; a failing file system (full disk, read-only, no permission) rejects with
 * {@link StorageError}, and a failed `put` leaves nothing `get` or `list` returns.
 */
export function createFileArtifactStore(dir: string, options: FileArtifactStoreOptions = {}): FileArtifactStore {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidInputError({
      entryPoint: 'createFileArtifactStore',
      reason: 'the directory must be a non-empty string',
    });
  }
  const fsync = options.fsync ?? true;
  const onUnreadable =
    options.onUnreadable ??
    ((error: ArtifactUnreadableError) => process.emitWarning(error.message, { code: 'TINY_ARTIFACT_UNREADABLE' }));
  const runDir = (entryPoint: string, runId: unknown): string => {
    if (typeof runId !== 'string' || runId.length === 0) {
      throw new InvalidInputError({ entryPoint, reason: 'the run id must be a non-empty string' });
    }
    return join(dir, encodeStoreName(runId));
  };
  /** A file-system failure as a {@link StorageError}; errors of this package pass through. */
  const failed = (operation: string, error: unknown): Error =>
    TinyError.isInstance(error) ? error : new StorageError({ operation, location: dir, cause: error });

  const writeAtomically = async (folder: string, file: string, data: Uint8Array | string): Promise<void> => {
    const temp = join(folder, `.${file}.${randomBytes(6).toString('hex')}${TEMP}`);
    let handle: FileHandle | undefined = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      if (fsync) await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(temp, join(folder, file));
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  };

  const readRecord = async (
    operation: string,
    folder: string,
    name: string,
    uri: string,
  ): Promise<StoredRecord | undefined> => {
    const bytes = await readStoreFile(operation, uri, join(folder, `${name}${RECORD}`));
    if (bytes === undefined) return undefined;
    try {
      const record = JSON.parse(bytes.toString('utf8')) as StoredRecord;
      if (record?.ref?.uri !== uri || typeof record.ref.sha256 !== 'string')
        throw new Error('the record names another artifact');
      return record;
    } catch (error) {
      throw new ArtifactUnreadableError({
        uri,
        reason: `its record is malformed (${(error as Error).message})`,
        cause: error,
      });
    }
  };

  /** A file of the store, refusing links and FIFOs as unreadable; `undefined` when missing. */
  const readStoreFile = async (operation: string, uri: string, path: string): Promise<Buffer | undefined> => {
    try {
      return await readRegularFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTREG') throw failed(operation, error);
      throw new ArtifactUnreadableError({ uri, reason: (error as Error).message, cause: error });
    }
  };

  /** Whether the run's folder exists; a symbolic link or file in its place is refused, never followed. */
  const hasRunFolder = async (operation: string, folder: string): Promise<boolean> => {
    try {
      const stats = await lstat(folder);
      if (!stats.isDirectory()) throw notRegular(folder, kindOf(stats), 'a directory');
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw failed(operation, error);
    }
  };

  const scan = async (operation: string, runId: string): Promise<ArtifactScan> => {
    const folder = runDir(operation, runId);
    let entries: string[] = [];
    if (await hasRunFolder(operation, folder)) {
      try {
        entries = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw failed(operation, error);
      }
    }
    const records: StoredRecord[] = [];
    const unreadable: ArtifactUnreadableError[] = [];
    for (const entry of entries) {
      if (!entry.endsWith(RECORD)) continue;
      const name = entry.slice(0, -RECORD.length);
      const id = decodeStoreName(name);
      if (id === undefined) continue; // temporary and foreign files (`put` writes UUID names only)
      try {
        const record = await readRecord(operation, folder, name, formatUri(runId, id));
        if (record !== undefined) records.push(record);
      } catch (error) {
        if (!ArtifactUnreadableError.isInstance(error)) throw error;
        unreadable.push(error);
      }
    }
    const refs = records
      .sort((a, b) => a.storedAt - b.storedAt || a.ref.uri.localeCompare(b.ref.uri))
      .map((record) => record.ref);
    return { refs, unreadable };
  };

  return {
    async put(data: ArtifactData, putOptions: ArtifactPutOptions): Promise<ArtifactRef> {
      const folder = runDir('FileArtifactStore.put', putOptions?.runId);
      const { id, bytes, ref } = prepareArtifact('FileArtifactStore.put', data, putOptions);
      const name = encodeStoreName(id);
      try {
        await ensureRealDirectory(folder);
        await writeAtomically(folder, `${name}${DATA}`, bytes);
        const record: StoredRecord = { ref, storedAt: Date.now() };
        await writeAtomically(folder, `${name}${RECORD}`, JSON.stringify(record));
        if (fsync) await syncDirectory(folder);
      } catch (error) {
        throw failed('FileArtifactStore.put', error);
      }
      return ref;
    },

    async get(ref: ArtifactRef | string): Promise<Uint8Array | undefined> {
      const uri = refUri('FileArtifactStore.get', ref);
      const { runId, id } = parseArtifactUri(uri);
      const folder = runDir('FileArtifactStore.get', runId);
      const name = encodeStoreName(id);
      if (!(await hasRunFolder('FileArtifactStore.get', folder))) return undefined;
      const record = await readRecord('FileArtifactStore.get', folder, name, uri);
      if (record === undefined) return undefined;
      const data = await readStoreFile('FileArtifactStore.get', uri, join(folder, `${name}${DATA}`));
      if (data === undefined) throw new ArtifactUnreadableError({ uri, reason: 'its data file is missing' });
      return verifyArtifactBytes(uri, new Uint8Array(data), record.ref, ref);
    },

    async list(runId: string): Promise<ArtifactRef[]> {
      const { refs, unreadable } = await scan('FileArtifactStore.list', runId);
      for (const error of unreadable) onUnreadable(error);
      return refs;
    },

    scan(runId: string): Promise<ArtifactScan> {
      return scan('FileArtifactStore.scan', runId);
    },
  };
}
