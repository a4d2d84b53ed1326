import { type LanguageModelV1StreamPart, ModelCallError, type ModelCallErrorKind } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { partsOf } from '../replay/stream-parts.js';
import { useAnswerServer } from './answer-server.js';
import type { SuiteModelFactory } from './describe-header-secrets.js';

/** A recorded stream for {@link describeBrokenStreams}, in the provider's own wire form. */
export interface BrokenStreamsWire {
  /**
   * The events of a recorded turn, in order, each a whole event (its `event:` and `data:` lines)
   * without the blank line that ends it. Served whole, they must finish normally.
   */
  readonly events: readonly string[];
  /**
   * The index of the event that tells the model finished (the one carrying the finish or stop
   * reason, or the terminal event). An end marker after it (`[DONE]`, `message_stop`) stays last.
   */
  readonly terminal: number;
  /**
   * The index of the event after which the stream must end (`message_stop`, `[DONE]`,
   * `response.completed`); absent for a protocol without one (Gemini's stream ends with the body).
   * Any event after it breaks the stream.
   */
  readonly end?: number | undefined;
  /** Event names of the protocol (each sent without data, it must break the stream). */
  readonly names?: readonly string[] | undefined;
}

/** Options of {@link describeBrokenStreams}. */
export interface BrokenStreamsOptions {
  /** Names the `describe` block. */
  readonly name: string;
  /** The adapter under test. */
  readonly create: SuiteModelFactory;
  /** The adapter's recorded stream. */
  readonly wire: BrokenStreamsWire;
}

/** A name no provider sends, with data that names no event type of it. */
const FOREIGN_NAME = 'relay_note';

/** Error payloads a reader might skip by their event's name (a tester's finds). */
const ERROR_PAYLOADS: readonly [string, string][] = [
  [
    'a ping event carrying an error payload',
    'event: ping\ndata: {"type":"error","error":{"type":"api_error","message":"upstream died"}}',
  ],
  ['a ping event carrying an error object', 'event: ping\ndata: {"error":{"message":"upstream died"}}'],
  [
    `a ${FOREIGN_NAME} event carrying an error object`,
    `event: ${FOREIGN_NAME}\ndata: {"error":{"message":"upstream died"}}`,
  ],
  [
    'an "error " event (a space after the name)',
    'event: error \ndata: {"type":"error ","error":{"message":"upstream died"}}',
  ],
];

const body = (events: readonly string[]): string => events.map((event) => `${event}\n\n`).join('');

/**
 * Registers the broken-stream tests, served over a real 127.0.0.1 server: a broken stream never
 * ends as a normal turn. The recorded stream finishes; each breakage below ends it with an `error`
 * part (a `ModelCallError` of the kind given) and no `finish` part:
 * - an `event: error` without a `data:` line, or with an empty one, right after the first event or
 *   right after the event that finished the turn: `server_error`;
 * - an event under a name the provider does not send (with data, or without), or one of its own
 *   names without data, at the same places: `protocol_violation`, not retryable;
 * - any of those, or the event that finished the turn again, after the event the stream must end
 *   with (`wire.end`): `protocol_violation` (the stream is read to its end; only comments and blank
 *   lines may follow it);
 * - the event that finished the turn sent twice in a row: `protocol_violation`;
 * - an error payload under a keep-alive or foreign name, or under `event: error ` (case and
 *   whitespace around the name do not count), after the first event: an error of the payload's kind;
 * - a stream of comments only, and the recorded stream cut before the event that finishes it:
 *   `incomplete_stream`, retryable;
 * - a `data: [DONE]` before the event that finished the turn: `protocol_violation` (a `[DONE]`
 *   says the server ended the stream);
 * - the connection dropped before the event the stream must end with (`wire.end`, else the event
 *   that finished the turn), after the finish reason too, and inside that event (`data: [DO`):
 *   `incomplete_stream`, retryable; dropped inside an event after it: an error too;
 * - an error event after the end, on a connection the server keeps open: an error (what arrives
 *   within `STREAM_END_GRACE_MS` is still checked).
 * And the recorded stream finishes as it does whole when the server keeps the connection open
 * after it (within `STREAM_END_GRACE_MS`, never after `idleTimeoutMs`), or drops it right after.
 */
export function describeBrokenStreams(options: BrokenStreamsOptions): void {
  const { events, terminal } = options.wire;
  const insert = (at: number, event: string): string => body([...events.slice(0, at), event, ...events.slice(at)]);
  const end = options.wire.end;
  const places: [string, number][] = [
    ['after the first event', 1],
    ...(end === undefined || terminal < end
      ? [['after the event that finished the turn', terminal + 1] as [string, number]]
      : []),
  ];
  const breakages: [string, string, ModelCallErrorKind][] = [
    ['an error event without data', 'event: error', 'server_error'],
    ['an error event with an empty data line', 'event: error\ndata:', 'server_error'],
    ['an event of a foreign name, with data', `event: ${FOREIGN_NAME}\ndata: {"note":"hi"}`, 'protocol_violation'],
    ['an event of a foreign name, without data', `event: ${FOREIGN_NAME}`, 'protocol_violation'],
    ...(options.wire.names ?? []).map((name): [string, string, ModelCallErrorKind] => [
      `a ${name} event without data`,
      `event: ${name}`,
      'protocol_violation',
    ]),
  ];
  const cases = places.flatMap(([where, at]) =>
    breakages.map(([what, event, kind]): [string, string, ModelCallErrorKind] => [
      `${what}, ${where}`,
      insert(at, event),
      kind,
    ]),
  );
  if (end !== undefined) {
    const after: [string, string][] = [
      ...breakages.map(([what, event]): [string, string] => [what, event]),
      ['the event that finished the turn again', events[terminal] as string],
      [
        'a keep-alive comment, then an error event with data',
        ': keep-alive\n\nevent: error\ndata: {"error":{"message":"late"}}',
      ],
    ];
    for (const [what, event] of after)
      cases.push([`${what}, after the end of the stream`, insert(end + 1, event), 'protocol_violation']);
  }
  cases.push(
    ['the event that finished the turn, twice', insert(terminal + 1, events[terminal] as string), 'protocol_violation'],
    ...ERROR_PAYLOADS.map(([what, event]): [string, string, ModelCallErrorKind] => [
      `${what}, after the first event`,
      insert(1, event),
      'server_error',
    ]),
  );
  cases.push(
    ['a stream of comments only', ': keep-alive\n\n: keep-alive\n\n', 'incomplete_stream'],
    ['the stream cut before the event that finishes it', body(events.slice(0, terminal)), 'incomplete_stream'],
    ['a [DONE] before the event that finished the turn', insert(terminal, 'data: [DONE]'), 'protocol_violation'],
  );
  /** The last event the stream must hold: `wire.end`, or the event that finished the turn. */
  const last = end ?? terminal;
  const lastEvent = events[last] as string;
  const drops: [string, string, ModelCallErrorKind | undefined][] = [
    ['before the event that finishes the turn', body(events.slice(0, terminal)), 'incomplete_stream'],
    ...(last > terminal
      ? [
          ['after the finish, before the end of the stream', body(events.slice(0, last)), 'incomplete_stream'] as [
            string,
            string,
            ModelCallErrorKind,
          ],
        ]
      : []),
    [
      'inside the last event',
      body(events.slice(0, last)) + lastEvent.slice(0, Math.max(1, lastEvent.length - 3)),
      'incomplete_stream',
    ],
    ['inside an event after the end of the stream', `${body(events)}data: {"err`, undefined],
  ];

  describe(options.name, () => {
    const server = useAnswerServer();
    const streamed = async (text: string): Promise<LanguageModelV1StreamPart[]> => {
      server.answer({ type: 'text/event-stream', body: text });
      const model = options.create({ baseURL: server.baseURL(), apiKey: 'sk-broken-0000' });
      return partsOf((await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream);
    };

    it('the recorded stream finishes', async () => {
      const parts = await streamed(body(events));
      expect(parts.at(-1)?.type).toBe('finish');
      expect(parts.some((part) => part.type === 'error')).toBe(false);
    });

    it('the recorded stream finishes when the server keeps the connection open after it', async () => {
      server.answer({ type: 'text/event-stream', body: body(events), ending: 'open' });
      const model = options.create({ baseURL: server.baseURL(), apiKey: 'sk-broken-0000' });
      const parts = await partsOf((await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream);
      expect(parts.at(-1)?.type).toBe('finish');
      expect(parts.some((part) => part.type === 'error')).toBe(false);
      server.answer({ type: 'text/event-stream', body: body(events), ending: 'drop' });
      const dropped = await partsOf((await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream);
      expect(dropped.map((part) => part.type)).toEqual(parts.map((part) => part.type));
    });

    it('an error event after the end, the connection kept open: an error, never a finish', async () => {
      server.answer({ type: 'text/event-stream', body: `${body(events)}event: error\n\n`, ending: 'open' });
      const model = options.create({ baseURL: server.baseURL(), apiKey: 'sk-broken-0000' });
      const parts = await partsOf((await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream);
      expect(parts.filter((part) => part.type === 'finish')).toEqual([]);
      const error = parts.at(-1)?.type === 'error' ? (parts.at(-1) as { error: unknown }).error : undefined;
      expect(ModelCallError.isInstance(error), String(error)).toBe(true);
    });

    it.each(drops)('the connection dropped %s: an error, never a finish', async (_name, text, kind) => {
      server.answer({ type: 'text/event-stream', body: text, ending: 'drop' });
      const model = options.create({ baseURL: server.baseURL(), apiKey: 'sk-broken-0000' });
      const parts = await partsOf((await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream);
      expect(parts.filter((part) => part.type === 'finish')).toEqual([]);
      const error = parts.at(-1)?.type === 'error' ? (parts.at(-1) as { error: unknown }).error : undefined;
      expect(ModelCallError.isInstance(error), String(error)).toBe(true);
      if (kind !== undefined) expect(error).toMatchObject({ kind, isRetryable: true });
      // no call of a broken turn may run
      for (const part of parts) if (part.type === 'tool_call_end') expect(part.call?.invalid, part.id).toBeDefined();
    });

    it.each(cases)('%s: an error, never a finish', async (_name, text, kind) => {
      const parts = await streamed(text);
      expect(parts.filter((part) => part.type === 'finish')).toEqual([]);
      const last = parts.at(-1);
      const error = last?.type === 'error' ? last.error : undefined;
      expect(ModelCallError.isInstance(error), String(error)).toBe(true);
      expect(error).toMatchObject({ kind });
      if (kind === 'protocol_violation') expect(error).toMatchObject({ isRetryable: false });
      if (kind === 'incomplete_stream' || kind === 'server_error') expect(error).toMatchObject({ isRetryable: true });
    });
  });
}
