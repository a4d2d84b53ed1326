import { createHash, randomUUID } from 'node:crypto';
import { InvalidInputError } from '@tiny/tools';
import type { ArtifactData, ArtifactPutOptions, ArtifactRef } from './artifact-store.js';

const SCHEME = 'tiny-artifact://';

/** The `tiny-artifact://<run>/<id>` URI of an artifact id in a run. */
export function formatArtifactUri(runId: string, id: string): string {
  return `${SCHEME}${encodeURIComponent(runId)}/${encodeURIComponent(id)}`;
}

/**
 * Reads a `tiny-artifact://` URI back into its run id and artifact id.
 * @throws {InvalidInputError} when `uri` is not an artifact URI.
 */
export function parseArtifactUri(uri: string): { readonly runId: string; readonly id: string } {
  const fail = (): never => {
    throw new InvalidInputError({ entryPoint: 'parseArtifactUri', reason: `not a ${SCHEME} URI: ${String(uri)}` });
  };
  if (typeof uri !== 'string' || !uri.startsWith(SCHEME)) return fail();
  const parts = uri.slice(SCHEME.length).split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return fail();
  try {
    return { runId: decodeURIComponent(parts[0] as string), id: decodeURIComponent(parts[1] as string) };
  } catch {
    return fail();
  }
}

/** `512 B`, `8.4 KB`, `2.1 MB`, `1.3 GB` (decimal units, one decimal). */
export function formatByteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The line the model reads in place of stored content: `[artifact: name, 2.1 MB, tiny-artifact://…]`. */
export function artifactReferenceLine(ref: ArtifactRef): string {
  return `[artifact: ${ref.name}, ${formatByteSize(ref.bytes)}, ${ref.uri}]`;
}

/**
 * For store implementations: checks `put` arguments and returns what to record, the bytes (text
 * encoded as UTF-8), a fresh random id and the reference (URI, size, SHA-256) `put` must return.
 * @throws {InvalidInputError} naming the malformed argument (`entryPoint` names the caller).
 */
export function prepareArtifact(
  entryPoint: string,
  data: ArtifactData,
  options: ArtifactPutOptions,
): { readonly id: string; readonly bytes: Uint8Array; readonly ref: ArtifactRef } {
  if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
    throw new InvalidInputError({ entryPoint, reason: 'the data must be a Uint8Array or a string' });
  }
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({ entryPoint, reason: 'the options must be an object' });
  }
  for (const field of ['mediaType', 'name', 'runId', 'callId'] as const) {
    if (typeof options[field] !== 'string' || options[field].length === 0) {
      throw new InvalidInputError({ entryPoint, reason: `\`${field}\` must be a non-empty string` });
    }
  }
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const id = randomUUID();
  return {
    id,
    bytes,
    ref: {
      uri: formatArtifactUri(options.runId, id),
      name: options.name,
      mediaType: options.mediaType,
      bytes: bytes.byteLength,
      sha256: sha256Hex(bytes),
      runId: options.runId,
      callId: options.callId,
    },
  };
}

/** Hex SHA-256 of bytes. @internal */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The URI of a reference or URI argument. @throws {InvalidInputError} @internal */
export function refUri(entryPoint: string, ref: ArtifactRef | string): string {
  const uri = typeof ref === 'string' ? ref : (ref as ArtifactRef | null)?.uri;
  if (typeof uri !== 'string') {
    throw new InvalidInputError({ entryPoint, reason: 'expected an ArtifactRef or its `uri`' });
  }
  return uri;
}
