import { exceedsWireDepth, MAX_WIRE_DEPTH } from '@tiny/provider-utils';

/**
 * An output item the adapter keeps opaque and sends back unchanged: a reasoning item (its
 * `encrypted_content` byte for byte), a hosted tool item (`web_search_call`, `file_search_call`,
 * `code_interpreter_call`, ...) or an item type the adapter does not know.
 * @internal
 */
export type ReplayItem = Readonly<Record<string, unknown>> & { readonly type: string };

/** Marks a reasoning signature that carries the turn's replay items (no order: they go first). @internal */
export const REPLAY_PREFIX = 'tiny.openai-responses.items.v1:';

/** Marks a reasoning signature that carries the turn's replay items and the order of all its output items. @internal */
export const ORDERED_REPLAY_PREFIX = 'tiny.openai-responses.items.v2:';

/**
 * One output item's place in the turn: `r` the next replay item, `m:<length>` a message item
 * holding the next `<length>` UTF-16 units of the turn's text (`m`, of older envelopes: the whole
 * text), `c:<call_id>` the function call of that id.
 * @internal
 */
export type ReplaySlot = 'r' | 'm' | `m:${number}` | 'c' | `c:${string}`;

/**
 * The reasoning signature for a response's replay items: the items as base64 JSON behind
 * {@link ORDERED_REPLAY_PREFIX} with `order`, the slot of every output item in `output_index` order
 * (so replay interleaves reasoning, the message and the calls as the model produced them).
 * `undefined` when there are no replay items. Strings inside the items (`encrypted_content`)
 * survive the round trip exactly: JSON text keeps every code unit. The caller refuses an item
 * nesting deeper than `MAX_WIRE_DEPTH` levels before it gets here (see `replayTooDeep`); such an
 * item is never serialised.
 * @internal
 */
export function encodeReplayItems(items: readonly ReplayItem[], order?: readonly ReplaySlot[]): string | undefined {
  if (items.length === 0 || items.some((item) => exceedsWireDepth(item, MAX_WIRE_DEPTH))) return undefined;
  if (order === undefined) return `${REPLAY_PREFIX}${Buffer.from(JSON.stringify(items), 'utf8').toString('base64')}`;
  return `${ORDERED_REPLAY_PREFIX}${Buffer.from(JSON.stringify({ items, order }), 'utf8').toString('base64')}`;
}

/** The first output item nesting deeper than `MAX_WIRE_DEPTH` levels (it cannot be replayed), if any. @internal */
export function replayTooDeep(items: readonly unknown[]): number | undefined {
  const index = items.findIndex((item) => exceedsWireDepth(item, MAX_WIRE_DEPTH));
  return index < 0 ? undefined : index;
}

/**
 * Item types an envelope never holds: the adapter writes calls, their outputs and messages from
 * the turn itself, so an envelope carrying one was not written by `encodeReplayItems`.
 */
const NEVER_REPLAYED: ReadonlySet<string> = new Set(['function_call', 'function_call_output', 'message']);

/** A replay envelope decoded: its items, and the slots of the turn's output items when it kept them. @internal */
export interface DecodedReplay {
  readonly items: ReplayItem[];
  readonly order: ReplaySlot[] | undefined;
}

function isSlot(value: unknown): value is ReplaySlot {
  return (
    typeof value === 'string' && (value === 'r' || value === 'm' || /^m:\d+$/.test(value) || value.startsWith('c:'))
  );
}

/** Whether a signature is this adapter's replay envelope (whether or not it decodes). @internal */
export function isReplayEnvelope(signature: string): boolean {
  return signature.startsWith(ORDERED_REPLAY_PREFIX) || signature.startsWith(REPLAY_PREFIX);
}

/**
 * The items a reasoning part's signature carries, in order, with the turn's item order when the
 * envelope kept one. `undefined` for a signature that is not this adapter's envelope or does not
 * decode (a damaged transcript, another provider's signature), that holds a function call, a call
 * output or a message (which would add a call or a turn the transcript does not show), or whose
 * order does not name each replay item once: the caller leaves another provider's signature out
 * with a warning, and refuses a damaged envelope of its own (see {@link isReplayEnvelope}).
 * The order only places what the turn holds; it adds nothing.
 * @internal
 */
export function decodeReplay(signature: string): DecodedReplay | undefined {
  const ordered = signature.startsWith(ORDERED_REPLAY_PREFIX);
  if (!ordered && !signature.startsWith(REPLAY_PREFIX)) return undefined;
  try {
    const prefix = ordered ? ORDERED_REPLAY_PREFIX : REPLAY_PREFIX;
    const decoded: unknown = JSON.parse(Buffer.from(signature.slice(prefix.length), 'base64').toString('utf8'));
    const envelope =
      ordered && typeof decoded === 'object' && decoded !== null ? (decoded as Record<string, unknown>) : undefined;
    const value = ordered ? envelope?.items : decoded;
    if (!Array.isArray(value)) return undefined;
    const items = value.filter(
      (item): item is ReplayItem =>
        typeof item === 'object' &&
        item !== null &&
        !Array.isArray(item) &&
        typeof item.type === 'string' &&
        !NEVER_REPLAYED.has(item.type),
    );
    if (items.length !== value.length) return undefined;
    if (!ordered) return { items, order: undefined };
    const order = envelope?.order;
    if (!Array.isArray(order) || !order.every(isSlot)) return undefined;
    if (order.filter((slot) => slot === 'r').length !== items.length) return undefined;
    return { items, order };
  } catch {
    return undefined;
  }
}

/**
 * The items a reasoning part's signature carries, in order (see {@link decodeReplay}).
 * @internal
 */
export function decodeReplayItems(signature: string): ReplayItem[] | undefined {
  return decodeReplay(signature)?.items;
}
