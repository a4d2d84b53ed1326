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
   * One of `names` whose data names another `type` breaks the stream.
   */
  readonly selfNamed?: boolean | undefined;
  /**
   * True for a protocol whose relays may close the stream with `data: [DONE]` after its terminal
   * event (the Responses stream): such an event after the end is skipped, not a violation.
   */
  readonly doneAfterEnd?: boolean | undefined;
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

function recordOf(data: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(data) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return value as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function typeOf(data: string): string | undefined {
  const type = recordOf(data)?.type;
  return typeof type === 'string' ? type : undefined;
}

/** An event name or type as compared: case and surrounding whitespace do not count. */
const normal = (name: string): string => name.trim().toLowerCase();

/**
 * True when an event's data is an error payload: a JSON object whose `type` is `error` (in any
 * case, whitespace around it included) or that carries a non-null `error`.
 */
export function isErrorPayload(data: string): boolean {
  if (!/error/i.test(data)) return false;
  const record = recordOf(data);
  if (record === undefined) return false;
  if (typeof record.type === 'string' && normal(record.type) === 'error') return true;
  return record.error !== undefined && record.error !== null;
}

/**
 * Checks one server-sent event's name against what the provider's stream may send, so every
 * adapter fails closed the same way: an event named `error` ends the turn as an error (with or
 * without data: `readSseEvents` delivers an `event: error` without a `data:` line with data `''`);
 * a name the protocol does not have, or one of its names with no data (an empty `data:` line
 * included), is a broken stream; an unnamed event (or one named `message`) and a whole JSON body
 * are read. Names are compared case-insensitively and without surrounding whitespace (`Error `
 * is `error`). An event the reader would skip (a keep-alive, an unknown name) whose data is an
 * error payload (see {@link isErrorPayload}) is an error too: a relay's error never hides under
 * another name.
 *
 * `after` names the terminal event once it arrived (`message_stop`, `[DONE]`,
 * `response.completed`): a stream is read to its end, and after that event every event is a
 * `violation` (an error, a second terminal event, a keep-alive and one of the protocol's own
 * events included: the turn the stream told is no longer known to be whole), except a
 * `data: [DONE]` when the protocol has `doneAfterEnd`. Only blank lines and comments (which are no events) may follow the end.
 *
 * A stream that ends without its terminal event, or holds only comments, is the reader's to
 * judge at its end: this checks events one by one.
 */
export function checkSseEvent(event: SseEvent, names: SseEventNames, after?: string): SseEventCheck {
  const check = checkName(event, names);
  if (after === undefined || check.verdict === 'violation') return check;
  if (names.doneAfterEnd === true && event.data.trim() === '[DONE]' && check.verdict === 'read')
    return { verdict: 'keep_alive' };
  return {
    verdict: 'violation',
    reason: `sent ${event.event === undefined ? 'an event' : `an event named ${shown(event.event)}`} after ${after}, where the stream must end`,
  };
}

function checkName(event: SseEvent, names: SseEventNames): SseEventCheck {
  if (event.whole === true || event.event === undefined) return READ;
  const name = normal(event.event);
  if (name === 'error') return { verdict: 'error' };
  if (name === 'message') return READ;
  const empty = event.data.trim() === '';
  if (names.keepAlive?.some((keepAlive) => normal(keepAlive) === name) === true)
    return isErrorPayload(event.data) ? { verdict: 'error' } : { verdict: 'keep_alive' };
  if (names.names?.some((known) => normal(known) === name) === true) {
    if (empty) return { verdict: 'violation', reason: `sent a ${shown(event.event)} event without data` };
    // A self-named protocol's own name over data of another type: which one to read is not known.
    const type = names.selfNamed === true ? typeOf(event.data) : undefined;
    if (type !== undefined && normal(type) !== name)
      return {
        verdict: 'violation',
        reason: `sent a ${shown(event.event)} event whose data is of type ${shown(type)}`,
      };
    return READ;
  }
  if (isErrorPayload(event.data)) return { verdict: 'error' };
  const type = names.selfNamed === true && !empty ? typeOf(event.data) : undefined;
  if (type !== undefined && normal(type) === name) return READ;
  return {
    verdict: 'violation',
    reason: `sent an event named ${shown(event.event)}${empty ? ' without data' : ''}, which this stream does not have`,
  };
}
