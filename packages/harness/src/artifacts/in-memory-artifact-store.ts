import { InvalidInputError } from '@tiny/tools';
import type { ArtifactData, ArtifactPutOptions, ArtifactRef, ArtifactStore } from './artifact-store.js';
import { prepareArtifact, refUri, verifyArtifactBytes } from './artifact-uri.js';

/**
 * An {@link ArtifactStore} in process memory (tests, short-lived runs). `get` returns a copy, so a
 * caller cannot change what is stored.
 */
export class InMemoryArtifactStore implements ArtifactStore {
  private readonly entries = new Map<string, { readonly ref: ArtifactRef; readonly bytes: Uint8Array }>();

  async put(data: ArtifactData, options: ArtifactPutOptions): Promise<ArtifactRef> {
    const { bytes, ref } = prepareArtifact('InMemoryArtifactStore.put', data, options);
    this.entries.set(ref.uri, { ref, bytes: bytes.slice() });
    return ref;
  }

  async get(ref: ArtifactRef | string): Promise<Uint8Array | undefined> {
    const uri = refUri('InMemoryArtifactStore.get', ref);
    const entry = this.entries.get(uri);
    return entry === undefined ? undefined : verifyArtifactBytes(uri, entry.bytes.slice(), entry.ref, ref);
  }

  async list(runId: string): Promise<ArtifactRef[]> {
    if (typeof runId !== 'string' || runId.length === 0) {
      throw new InvalidInputError({
        entryPoint: 'InMemoryArtifactStore.list',
        reason: 'the run id must be a non-empty string',
      });
    }
    return [...this.entries.values()].filter((entry) => entry.ref.runId === runId).map((entry) => entry.ref);
  }
}
