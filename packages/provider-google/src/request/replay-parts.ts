import { exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/** A content part as the API sent or takes it. @internal */
export type WirePart = Record<string, unknown>;

/** Marks a reasoning signature that carries a response's non-call parts for replay. @internal */
export const PARTS_PREFIX = 'tiny.google.parts.v1:';

/**
 * The key of a call's place among the kept parts: `{"tinyCall": "<call id>"}` stands where the
 * `functionCall` part stood; the replay puts the transcript's call (name, arguments, signature)
 * there. It names a call; it never holds one.
 * @internal
 */
export const CALL_REF = 'tinyCall';

/** The place of call `id` among the kept parts. @internal */
export function callRef(id: string): WirePart {
  return { [CALL_REF]: id };
}

/** The call id a kept part stands for, when it is a call's place. @internal */
export function callRefOf(part: WirePart): string | undefined {
  const id = part[CALL_REF];
  return typeof id === 'string' ? id : undefined;
}

/**
 * The reasoning signature for a response's parts in their order: thought and text parts,
 * signature-only parts, code parts, and the place of each call (see {@link callRef}), kept so the
 * next request sends them back exactly, in order, each `thoughtSignature` on the part it came
 * on: base64 JSON behind {@link PARTS_PREFIX}. `undefined` when no part carries a signature, none
 * is a thought and none is code (nothing to replay). Parts nesting deeper than `MAX_WIRE_DEPTH`
 * are left out.
 * @internal
 */
export function encodeReplayParts(all: readonly WirePart[]): string | undefined {
  const parts = all.filter((part) => !exceedsWireDepth(part, MAX_WIRE_DEPTH));
  if (
    !parts.some(
      (part) =>
        part.thought === true ||
        typeof part.thoughtSignature === 'string' ||
        part.executableCode !== undefined ||
        part.codeExecutionResult !== undefined,
    )
  )
    return undefined;
  return `${PARTS_PREFIX}${Buffer.from(JSON.stringify(parts), 'utf8').toString('base64')}`;
}

/** An object whose keys are all in `allowed` and whose every value is a string. */
function isStringRecord(value: unknown, allowed: readonly string[]): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([key, item]) => allowed.includes(key) && typeof item === 'string');
}

/**
 * The part kept for replay from a response part that is neither text nor a call: a
 * signature-only part (`{thoughtSignature}`), an `executableCode` / `codeExecutionResult` part
 * with its signature, or an `inlineData` part carrying a signature (kept on it); `undefined` for any other part (not replayed).
 * @internal
 */
export function replayPartOf(part: Readonly<Record<string, unknown>>): WirePart | undefined {
  const signature = typeof part.thoughtSignature === 'string' ? { thoughtSignature: part.thoughtSignature } : {};
  if (isStringRecord(part.executableCode, ['language', 'code']))
    return { executableCode: { ...part.executableCode }, ...signature };
  if (isStringRecord(part.codeExecutionResult, ['outcome', 'output']))
    return { codeExecutionResult: { ...part.codeExecutionResult }, ...signature };
  // an inline data part (an image the model made) keeps its signature on itself
  if (isStringRecord(part.inlineData, ['mimeType', 'data']) && typeof part.thoughtSignature === 'string')
    return { inlineData: { ...part.inlineData }, ...signature };
  if (typeof part.thoughtSignature === 'string' && part.text === undefined && part.functionCall === undefined)
    return signature;
  return undefined;
}

/**
 * Settles the places of calls once the turn's calls are known: a place whose call was dropped (an
 * exact repeat, see `dropExactRepeats`) keeps only that copy's signature, as a signature-only
 * part where the copy stood (no second `functionCall` is replayed for one result), or goes.
 * @internal
 */
export function settleCallRefs(
  parts: readonly WirePart[],
  keptIds: ReadonlySet<string>,
  signatureOf: (id: string) => string | undefined,
): WirePart[] {
  return parts.flatMap((part) => {
    const id = callRefOf(part);
    if (id === undefined || keptIds.has(id)) return [part];
    const signature = signatureOf(id);
    return signature === undefined ? [] : [{ thoughtSignature: signature }];
  });
}

/**
 * A part as this adapter keeps them: text or thought (`text`, `thought`, `thoughtSignature`), a
 * signature alone, a call's place, or code (`executableCode` / `codeExecutionResult`, with a
 * signature).
 */
function isKeptPart(part: unknown): part is WirePart {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return false;
  const record = part as Record<string, unknown>;
  const keys = Object.keys(record);
  if (record.thoughtSignature !== undefined && typeof record.thoughtSignature !== 'string') return false;
  if (keys.length === 1 && typeof record[CALL_REF] === 'string') return true;
  if (keys.length === 1 && keys[0] === 'thoughtSignature') return true;
  const only = (...allowed: string[]) => keys.every((key) => allowed.includes(key));
  if (record.executableCode !== undefined)
    return only('executableCode', 'thoughtSignature') && isStringRecord(record.executableCode, ['language', 'code']);
  if (record.inlineData !== undefined)
    return only('inlineData', 'thoughtSignature') && isStringRecord(record.inlineData, ['mimeType', 'data']);
  if (record.codeExecutionResult !== undefined)
    return (
      only('codeExecutionResult', 'thoughtSignature') &&
      isStringRecord(record.codeExecutionResult, ['outcome', 'output'])
    );
  return (
    typeof record.text === 'string' &&
    (record.thought === undefined || typeof record.thought === 'boolean') &&
    only('text', 'thought', 'thoughtSignature')
  );
}

/**
 * The parts a reasoning signature carries; `undefined` for one that is not this adapter's, does
 * not decode, or holds any part this adapter does not keep (a damaged or forged transcript must
 * not put a `functionCall` or any other part into the request: a call's place only names a call
 * of the transcript's own turn).
 * @internal
 */
export function decodeReplayParts(signature: string): WirePart[] | undefined {
  if (!signature.startsWith(PARTS_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(signature.slice(PARTS_PREFIX.length), 'base64').toString('utf8'));
    if (!Array.isArray(value)) return undefined;
    const parts = value.filter(isKeptPart);
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
