import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '@tiny/tools';
import type { ArtifactData, ArtifactPutOptions, ArtifactRef, ArtifactStore } from '../artifacts/artifact-store.js';
import {
  formatArtifactUri as formatUri,
  parseArtifactUri,
  prepareArtifact,
  refUri,
  sha256Hex,
} from '../artifacts/artifact-uri.js';
import { ArtifactUnreadableError } from '../errors/artifact-unreadable-error.js';
import { syncDirectory } from './sync-directory.js';

const DATA = '.bin';
const RECORD = '.json';
const TEMP = '.tmp';
/** Longest encoded run id: directory names stay below the usual 255-byte limit. */
const MAX_NAME = 200;

/** Options for {@link createFileArtifactStore}. */
export interface FileArtifactStoreOptions {
  /**
   * fsync each file and its directory on every `put` (default true). Off, a stored artifact survives
   * a killed process but not an OS crash or power cut; `put` is still atomic.
   */
  readonly fsync?: boolean | undefined;
}

interface StoredRecord {
  readonly ref: ArtifactRef;
  readonly storedAt: number;
}

/**
 * An {@link ArtifactStore} on the file system: one directory per run in `dir` (the URL-encoded run
 * id), holding `<id>.bin` (the bytes) and `<id>.json` (the reference). A `put` writes each file as
 * a temporary file, fsyncs it and renames it into place, data first, then the record, then fsyncs
 * the directory: an artifact exists (for `get` and `list`) only once its record does, and its
 * record exists only after the complete bytes. A process killed mid-`put` leaves at most a
 * temporary file (`.<id>.<random>.tmp`) or an unreferenced `.bin`, never a listed or readable half
 * artifact. Every `get` checks the size and SHA-256 recorded at `put`. Node.js only (`node:fs`).
 *
 * ```ts
 * // createFileArtifactStore is exported by `@tiny/harness/node`
 * const harness = new AgentHarness({ model, tools, artifacts: createFileArtifactStore('./artifacts') });
 * ```
 *
 * @throws {InvalidInputError} when `dir` is not a non-empty string; from a method (as a rejection)
 * on malformed arguments or a run id too long for a directory name (over 200 characters encoded).
 * `get` rejects with {@link ArtifactUnreadableError} when stored bytes do not match their record.
 */
export function createFileArtifactStore(dir: string, options: FileArtifactStoreOptions = {}): ArtifactStore {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidInputError({
      entryPoint: 'createFileArtifactStore',
      reason: 'the directory must be a non-empty string',
    });
  }
  const fsync = options.fsync ?? true;
  const runDir = (entryPoint: string, runId: unknown): string => {
    if (typeof runId !== 'string' || runId.length === 0) {
      throw new InvalidInputError({ entryPoint, reason: 'the run id must be a non-empty string' });
    }
    const name = encodeURIComponent(runId);
    if (name.length > MAX_NAME) {
      throw new InvalidInputError({
        entryPoint,
        reason: `the run id is too long for a directory name (${name.length} characters encoded, at most ${MAX_NAME})`,
      });
    }
    return join(dir, name);
  };

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

  const readRecord = async (folder: string, id: string, uri: string): Promise<StoredRecord | undefined> => {
    let text: string;
    try {
      text = await readFile(join(folder, `${id}${RECORD}`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const record = JSON.parse(text) as StoredRecord;
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

  return {
    async put(data: ArtifactData, putOptions: ArtifactPutOptions): Promise<ArtifactRef> {
      const folder = runDir('FileArtifactStore.put', putOptions?.runId);
      const { id, bytes, ref } = prepareArtifact('FileArtifactStore.put', data, putOptions);
      await mkdir(folder, { recursive: true });
      await writeAtomically(folder, `${id}${DATA}`, bytes);
      const record: StoredRecord = { ref, storedAt: Date.now() };
      await writeAtomically(folder, `${id}${RECORD}`, JSON.stringify(record));
      if (fsync) await syncDirectory(folder);
      return ref;
    },

    async get(ref: ArtifactRef | string): Promise<Uint8Array | undefined> {
      const uri = refUri('FileArtifactStore.get', ref);
      const { runId, id } = parseArtifactUri(uri);
      if (id.includes('/') || id.includes('\\') || id.startsWith('.')) return undefined;
      const folder = runDir('FileArtifactStore.get', runId);
      const record = await readRecord(folder, id, uri);
      if (record === undefined) return undefined;
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await readFile(join(folder, `${id}${DATA}`)));
      } catch (error) {
        throw new ArtifactUnreadableError({ uri, reason: 'its data file cannot be read', cause: error });
      }
      if (bytes.byteLength !== record.ref.bytes || sha256Hex(bytes) !== record.ref.sha256) {
        throw new ArtifactUnreadableError({
          uri,
          reason: 'the stored bytes do not match their recorded size and SHA-256',
        });
      }
      return bytes;
    },

    async list(runId: string): Promise<ArtifactRef[]> {
      const folder = runDir('FileArtifactStore.list', runId);
      let entries: string[];
      try {
        entries = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const records: StoredRecord[] = [];
      for (const entry of entries) {
        if (!entry.endsWith(RECORD) || entry.startsWith('.')) continue;
        const id = entry.slice(0, -RECORD.length);
        const record = await readRecord(folder, id, formatUri(runId, id));
        if (record !== undefined) records.push(record);
      }
      return records
        .sort((a, b) => a.storedAt - b.storedAt || a.ref.uri.localeCompare(b.ref.uri))
        .map((record) => record.ref);
    },
  };
}
