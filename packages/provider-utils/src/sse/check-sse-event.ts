import type { SseEvent } from './read-sse-events.js';

/** The event names a provider's stream may send, for {@link checkSseEvent}. */
export interface SseEventNames {
  /**
   * Names of events that carry the protocol's data (besides unnamed events and `message`, the SSE
   * default name, which every protocol reads). Such an event without data breaks the stream.
   */
  readonly names?: readonly string[] | undefined;
  /** Names of keep-alive events (Anthropic's `ping`), read with or without data. */
  readonly keepAlive?: readonly string[] | undefined;
  /**
   * True for a protocol that names every event by its data's `type` and documents that it adds
   * event types (Anthropic's Messages stream, OpenAI's Responses stream): an unknown name is read
   * when its data is a JSON object whose `type` is that name, so the reader may skip it.
   */
  readonly selfNamed?: boolean | undefined;
}

/**
 * What a stream reader does with one event (see {@link checkSseEvent}):
 * - `read`: read its data;
 * - `keep_alive`: skip it;
 * - `error`: an event named `error` (whatever its data, none included): the turn ends as an error,
 *   the data (if any) its payload;
 * - `violation`: a name the protocol does not have, or one of its names without data: the stream
 *   is broken, the turn ends as a `protocol_violation` error; `reason` says why.
 */
export type SseEventCheck =
  | { readonly verdict: 'read' }
  | { readonly verdict: 'keep_alive' }
  | { readonly verdict: 'error' }
  | { readonly verdict: 'violation'; readonly reason: string };

const READ: SseEventCheck = { verdict: 'read' };

/** An event name as it appears in a reason: bounded, control characters escaped. */
function shown(name: string): string {
  return JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
}

function typeOf(data: string): string | undefined {
  try {
    const value = JSON.parse(data) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const type = (value as Record<string, unknown>).type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks one server-sent event's name against what the provider's stream may send, so every
 * adapter fails closed the same way: an event named `error` ends the turn as an error (with or
 * without data: `readSseEvents` delivers an `event: error` without a `data:` line with data `''`);
 * a name the protocol does not have, or one of its names with no data (an empty `data:` line
 * included), is a broken stream; an unnamed event (or one named `message`) and a whole JSON body
 * are read. Names are compared case-insensitively.
 *
 * A stream that ends without its terminal event, or holds only comments, is the reader's to
 * judge at its end: this checks events one by one.
 */
export function checkSseEvent(event: SseEvent, names: SseEventNames): SseEventCheck {
  if (event.whole === true || event.event === undefined) return READ;
  const name = event.event.toLowerCase();
  if (name === 'error') return { verdict: 'error' };
  if (name === 'message') return READ;
  if (names.keepAlive?.some((keepAlive) => keepAlive.toLowerCase() === name) === true) return { verdict: 'keep_alive' };
  const empty = event.data.trim() === '';
  if (names.names?.some((known) => known.toLowerCase() === name) === true) {
    return empty ? { verdict: 'violation', reason: `sent a ${shown(event.event)} event without data` } : READ;
  }
  if (names.selfNamed === true && !empty && typeOf(event.data)?.toLowerCase() === name) return READ;
  return {
    verdict: 'violation',
    reason: `sent an event named ${shown(event.event)}${empty ? ' without data' : ''}, which this stream does not have`,
  };
}
