import { exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/**
 * Content blocks the adapter keeps opaque and replays unchanged: thinking (its signature must not
 * change), redacted thinking, and provider-executed server-tool blocks.
 * @internal
 */
export type OpaqueBlock = Readonly<Record<string, unknown>> & { readonly type: string };

/** Marks a reasoning signature that carries several opaque blocks rather than one signature. @internal */
export const OPAQUE_PREFIX = 'tiny.anthropic.blocks.v1:';

/**
 * The reasoning signature for a response's opaque blocks: the raw signature when they are exactly
 * one signed thinking block (the common case, so the signature is the API's own), else the blocks
 * as base64 JSON behind {@link OPAQUE_PREFIX}. `undefined` when there are none. A block nesting
 * deeper than `MAX_WIRE_DEPTH` levels is left out (never serialised: it could overflow the stack).
 * @internal
 */
export function encodeOpaqueBlocks(all: readonly OpaqueBlock[]): string | undefined {
  const blocks = all.filter((block) => !exceedsWireDepth(block, MAX_WIRE_DEPTH));
  if (blocks.length === 0) return undefined;
  const [only] = blocks;
  if (blocks.length === 1 && only?.type === 'thinking' && typeof only.signature === 'string') return only.signature;
  return `${OPAQUE_PREFIX}${Buffer.from(JSON.stringify(blocks), 'utf8').toString('base64')}`;
}

/**
 * The blocks to replay for a reasoning part: the decoded envelope, or one thinking block with the
 * part's text and signature. `undefined` for an envelope that does not decode (a damaged transcript).
 * @internal
 */
export function decodeOpaqueBlocks(text: string, signature: string): OpaqueBlock[] | undefined {
  if (!signature.startsWith(OPAQUE_PREFIX)) return [{ type: 'thinking', thinking: text, signature }];
  try {
    const value: unknown = JSON.parse(Buffer.from(signature.slice(OPAQUE_PREFIX.length), 'base64').toString('utf8'));
    if (!Array.isArray(value)) return undefined;
    const blocks = value.filter(
      (block): block is OpaqueBlock => typeof block === 'object' && block !== null && typeof block.type === 'string',
    );
    return blocks.length === value.length ? blocks : undefined;
  } catch {
    return undefined;
  }
}
