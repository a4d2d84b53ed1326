import { exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/** A content part as the API sent or takes it. @internal */
export type WirePart = Record<string, unknown>;

/** Marks a reasoning signature that carries a response's non-call parts for replay. @internal */
export const PARTS_PREFIX = 'tiny.google.parts.v1:';

/**
 * The reasoning signature for a response's parts other than function calls (thought parts and
 * text parts), kept so the next request sends them back exactly, each `thoughtSignature` on the
 * part it came on: base64 JSON behind {@link PARTS_PREFIX}. `undefined` when no part carries a
 * signature and none is a thought (nothing to replay). Parts nesting deeper than `MAX_WIRE_DEPTH`
 * are left out.
 * @internal
 */
export function encodeReplayParts(all: readonly WirePart[]): string | undefined {
  const parts = all.filter((part) => !exceedsWireDepth(part, MAX_WIRE_DEPTH));
  if (!parts.some((part) => part.thought === true || typeof part.thoughtSignature === 'string')) return undefined;
  return `${PARTS_PREFIX}${Buffer.from(JSON.stringify(parts), 'utf8').toString('base64')}`;
}

/** A text or thought part as this adapter keeps them: `text`, and `thought` and `thoughtSignature` when set. */
function isTextPart(part: unknown): part is WirePart {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return false;
  const record = part as Record<string, unknown>;
  return (
    typeof record.text === 'string' &&
    (record.thought === undefined || typeof record.thought === 'boolean') &&
    (record.thoughtSignature === undefined || typeof record.thoughtSignature === 'string') &&
    Object.keys(record).every((key) => key === 'text' || key === 'thought' || key === 'thoughtSignature')
  );
}

/**
 * The parts a reasoning signature carries; `undefined` for one that is not this adapter's, does
 * not decode, or holds anything but text and thought parts (a damaged or forged transcript must
 * not put a `functionCall` or any other part into the request).
 * @internal
 */
export function decodeReplayParts(signature: string): WirePart[] | undefined {
  if (!signature.startsWith(PARTS_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(signature.slice(PARTS_PREFIX.length), 'base64').toString('utf8'));
    if (!Array.isArray(value)) return undefined;
    const parts = value.filter(isTextPart);
    return parts.length === value.length ? parts : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Appends a streamed part to the parts so far: a text piece joins the previous part when both are
 * text of the same kind (thought or not) and neither carries a signature, so a replay sends the
 * text whole while every signature stays on the part it came on.
 * @internal
 */
export function appendPart(parts: WirePart[], part: WirePart): void {
  const last = parts[parts.length - 1];
  const joinable = (candidate: WirePart | undefined): candidate is WirePart =>
    candidate !== undefined &&
    typeof candidate.text === 'string' &&
    candidate.thoughtSignature === undefined &&
    Object.keys(candidate).every((key) => key === 'text' || key === 'thought');
  if (joinable(last) && joinable(part) && (last.thought === true) === (part.thought === true)) {
    last.text = `${last.text as string}${part.text as string}`;
    return;
  }
  parts.push({
    text: typeof part.text === 'string' ? part.text : '',
    ...(part.thought === true ? { thought: true } : {}),
    ...(typeof part.thoughtSignature === 'string' ? { thoughtSignature: part.thoughtSignature } : {}),
  });
}
