import { createHash, randomUUID } from 'node:crypto';
import { InvalidInputError } from '@tiny/tools';
import { ArtifactUnreadableError } from '../errors/artifact-unreadable-error.js';
import type { ArtifactData, ArtifactPutOptions, ArtifactRef } from './artifact-store.js';

const SCHEME = 'tiny-artifact://';

/** A lone UTF-16 surrogate: text that no URI (nor UTF-8) can hold. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The `tiny-artifact://<run>/<id>` URI of an artifact id in a run.
 * @throws {InvalidInputError} when the run id or id holds a lone surrogate (not well-formed Unicode).
 */
export function formatArtifactUri(runId: string, id: string): string {
  for (const [what, value] of [
    ['run id', runId],
    ['artifact id', id],
  ] as const) {
    if (LONE_SURROGATE.test(value)) {
      throw new InvalidInputError({
        entryPoint: 'formatArtifactUri',
        reason: `the ${what} holds a lone UTF-16 surrogate, which no artifact URI can hold`,
      });
    }
  }
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
  for (const field of ['mediaType', 'name', 'runId', 'callId'] as const) {
    if (LONE_SURROGATE.test(options[field])) {
      throw new InvalidInputError({
        entryPoint,
        reason: `\`${field}\` holds a lone UTF-16 surrogate (not well-formed Unicode: no URI or UTF-8 store can keep it)`,
      });
    }
  }
  let bytes: Uint8Array;
  try {
    // A copy: the hash and the stored bytes are the same bytes even if the caller changes `data` meanwhile.
    bytes = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data);
  } catch (error) {
    // A Uint8Array whose ArrayBuffer was transferred (detached) cannot be read.
    throw new InvalidInputError({
      entryPoint,
      reason: `the data cannot be read (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    });
  }
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
  if (typeof ref !== 'string' && (typeof ref.sha256 !== 'string' || typeof ref.bytes !== 'number')) {
    throw new InvalidInputError({
      entryPoint,
      reason: 'an ArtifactRef must carry its `sha256` and `bytes` (pass the `uri` alone to read without them)',
    });
  }
  return uri;
}

/**
 * For store implementations: checks bytes read for `ref` against what the store recorded at `put`
 * and, when `ref` is a reference rather than a bare URI, against the reference's own size and
 * SHA-256, so a consistent rewrite of bytes and record is never returned as the original.
 * Returns the bytes when they match.
 * @throws {ArtifactUnreadableError} on any mismatch.
 */
export function verifyArtifactBytes(
  uri: string,
  bytes: Uint8Array,
  recorded: { readonly bytes: number; readonly sha256: string },
  ref: ArtifactRef | string,
): Uint8Array {
  const digest = sha256Hex(bytes);
  if (bytes.byteLength !== recorded.bytes || digest !== recorded.sha256) {
    throw new ArtifactUnreadableError({ uri, reason: 'the stored bytes do not match their recorded size and SHA-256' });
  }
  if (typeof ref !== 'string' && (bytes.byteLength !== ref.bytes || digest !== ref.sha256.toLowerCase())) {
    throw new ArtifactUnreadableError({
      uri,
      reason: 'the stored bytes do not match the size and SHA-256 of the reference they were read for',
    });
  }
  return bytes;
}
