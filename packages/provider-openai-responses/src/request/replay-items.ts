import { exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/**
 * An output item the adapter keeps opaque and sends back unchanged: a reasoning item (its
 * `encrypted_content` byte for byte), a hosted tool item (`web_search_call`, `file_search_call`,
 * `code_interpreter_call`, ...) or an item type the adapter does not know.
 * @internal
 */
export type ReplayItem = Readonly<Record<string, unknown>> & { readonly type: string };

/** Marks a reasoning signature that carries the turn's replay items. @internal */
export const REPLAY_PREFIX = 'tiny.openai-responses.items.v1:';

/**
 * The reasoning signature for a response's replay items: the items as base64 JSON behind
 * {@link REPLAY_PREFIX}, in output order. `undefined` when there are none. Strings inside the items
 * (`encrypted_content`) survive the round trip exactly: JSON text keeps every code unit. An item
 * nesting deeper than `MAX_WIRE_DEPTH` levels is left out (never serialised).
 * @internal
 */
export function encodeReplayItems(all: readonly ReplayItem[]): string | undefined {
  const items = all.filter((item) => !exceedsWireDepth(item, MAX_WIRE_DEPTH));
  if (items.length === 0) return undefined;
  return `${REPLAY_PREFIX}${Buffer.from(JSON.stringify(items), 'utf8').toString('base64')}`;
}

/**
 * Item types an envelope never holds: the adapter writes calls, their outputs and messages from
 * the turn itself, so an envelope carrying one was not written by `encodeReplayItems`.
 */
const NEVER_REPLAYED: ReadonlySet<string> = new Set(['function_call', 'function_call_output', 'message']);

/**
 * The items a reasoning part's signature carries, in order. `undefined` for a signature that is
 * not this adapter's envelope or does not decode (a damaged transcript, another provider's
 * signature), or that holds a function call, a call output or a message (which would add a call
 * or a turn the transcript does not show): the caller leaves the part out with a warning.
 * @internal
 */
export function decodeReplayItems(signature: string): ReplayItem[] | undefined {
  if (!signature.startsWith(REPLAY_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(signature.slice(REPLAY_PREFIX.length), 'base64').toString('utf8'));
    if (!Array.isArray(value)) return undefined;
    const items = value.filter(
      (item): item is ReplayItem =>
        typeof item === 'object' &&
        item !== null &&
        !Array.isArray(item) &&
        typeof item.type === 'string' &&
        !NEVER_REPLAYED.has(item.type),
    );
    return items.length === value.length ? items : undefined;
  } catch {
    return undefined;
  }
}
