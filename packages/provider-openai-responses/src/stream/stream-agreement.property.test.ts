// A recorded tool-call step (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911, kept in
// __fixtures__/responses/reasoning-agent-run.2.sse) with one disagreement put in: whichever it is,
// wherever the bytes split, the turn ends in an error and no call of it is runnable. Sized by runs.
import { readFileSync } from 'node:fs';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamResponse } from './stream-response.js';

type Event = Record<string, unknown> & { type: string };

const recorded = readFileSync(new URL('../__fixtures__/responses/reasoning-agent-run.2.sse', import.meta.url), 'utf8')
  .split('\n\n')
  .filter((block) => block.includes('data: '))
  .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Event);

const frame = (event: Event, name = event.type) => `event: ${name}\ndata: ${JSON.stringify(event)}\n\n`;

/** Ends a mutated text whose body then fails (a reset) instead of closing. */
const FAILS = '\u0000fails';

/** The events with `extra` put just before the terminal one, numbered afresh (so only `extra` disagrees). */
function beforeTerminal(events: Event[], extra: (Event | string)[]): string {
  let next = 0;
  const numbered = (event: Event) => frame({ ...event, sequence_number: next++ });
  const body = [...events.slice(0, -1), ...extra].map((event) => (typeof event === 'string' ? event : numbered(event)));
  return body.join('') + numbered(events.at(-1) as Event);
}

const responseId = String((recorded[0]?.response as { id?: unknown } | undefined)?.id ?? '');

/** Each mutation of the recorded events, written as SSE text (the unmutated stream runs its call). */
const mutations: Record<string, (events: Event[], pick: number) => string> = {
  'terminal type over a completed body': (events, pick) => {
    const last = events.at(-1) as Event;
    const type = ['response.incomplete', 'response.cancelled'][pick % 2] as string;
    return [...events.slice(0, -1), { ...last, type }].map((event) => frame(event)).join('');
  },
  'SSE name not the data type': (events, pick) => {
    const name = ['response.failed', 'response.incomplete', 'response.cancelled'][pick % 3];
    return events.map((event, index) => frame(event, index === events.length - 1 ? name : event.type)).join('');
  },
  'event after the terminal one': (events, pick) => {
    const last = events.at(-1) as Event;
    const late = events[pick % (events.length - 1)] as Event;
    return [...events, { ...late, sequence_number: Number(last.sequence_number) + 1 }].map((e) => frame(e)).join('');
  },
  'done item renamed': (events) =>
    events
      .map((event) =>
        event.type === 'response.output_item.done'
          ? frame({ ...event, item: { ...(event.item as object), name: 'delete_file' } })
          : frame(event),
      )
      .join(''),
  'done item with other arguments': (events, pick) =>
    events
      .map((event) =>
        event.type === 'response.output_item.done'
          ? frame({ ...event, item: { ...(event.item as object), arguments: ['', '   ', '{"a":1}', null][pick % 4] } })
          : frame(event),
      )
      .join(''),
  // Round 2 (providers3-responses-r2): failure names over any data, array data, failure signs on
  // pending events, items left open or input-only, refusals arriving whole, losses after the end.
  'failure name over non-object data': (events, pick) =>
    beforeTerminal(events, [
      `event: ${['error', 'response.failed', 'response.incomplete'][pick % 3]}\ndata: ${['null', '"x"', '503', '', '[DONE]'][pick % 5]}\n\n`,
    ]),
  'array data line': (events) => beforeTerminal(events, ['data: [{"type":"error","message":"x"}]\n\n']),
  'pending event with a failure sign': (events, pick) =>
    beforeTerminal(events, [
      {
        type: 'response.in_progress',
        response: {
          id: responseId,
          status: 'in_progress',
          ...(pick % 2 === 0
            ? { error: { code: 'server_error', message: 'x' } }
            : { incomplete_details: { reason: 'max_output_tokens' } }),
        },
      },
    ]),
  'item left open at the terminal event': (events, pick) =>
    beforeTerminal(events, [
      {
        type: 'response.output_item.added',
        output_index: 90,
        item: pick % 2 === 0 ? { type: 'reasoning', id: 'rs_x', summary: [] } : { type: 'web_search_call', id: 'ws_x' },
      },
    ]),
  'input-only item in the output': (events) => {
    const item = { type: 'function_call_output', id: 'x', call_id: 'z', output: 'x' };
    return beforeTerminal(events, [
      { type: 'response.output_item.added', output_index: 90, item },
      { type: 'response.output_item.done', output_index: 90, item },
    ]);
  },
  'refusal only in completed.output': (events) => {
    const last = events.at(-1) as Event;
    const response = last.response as { output?: unknown[] };
    const refusal = { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] };
    return [
      ...events.slice(0, -1),
      { ...last, response: { ...response, output: [...(response.output ?? []), refusal] } },
    ]
      .map((event) => frame(event))
      .join('');
  },
  'half an event after the terminal one, then a reset': (events, pick) =>
    events.map((event) => frame(event)).join('') +
    ['event: error\ndata: {"type":"err', 'data: {"type":"response.failed"', 'event: er'][pick % 3] +
    FAILS,
  'completed id emptied': (events) => {
    const last = events.at(-1) as Event;
    return [...events.slice(0, -1), { ...last, response: { ...(last.response as object), id: '' } }]
      .map((event) => frame(event))
      .join('');
  },
};

function body(bytes: Uint8Array, cuts: readonly number[], fails = false): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) chunks.push(bytes.slice(from, point));
    from = Math.max(from, point);
  }
  // Pulled one chunk at a time, so a reset comes after every byte was read (as a socket's does).
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk !== undefined) controller.enqueue(chunk);
      else if (fails) controller.error(new Error('connection reset'));
      else controller.close();
    },
  });
}

async function settle(text: string, cuts: readonly number[]) {
  const parts: LanguageModelV1StreamPart[] = [];
  const fails = text.endsWith(FAILS);
  const bytes = new TextEncoder().encode(fails ? text.slice(0, -FAILS.length) : text);
  for await (const part of streamResponse(body(bytes, cuts, fails), { provider: 'openai' })) parts.push(part);
  return collectStreamSettled(
    (async function* () {
      yield* parts;
    })(),
  );
}

describe('a stream that disagrees with itself', () => {
  it('the recorded step as is runs its call', async () => {
    const settled = await settle(recorded.map((event) => frame(event)).join(''), []);
    expect(settled.error).toBeUndefined();
    expect(settled.response.toolCalls[0]?.invalid).toBeUndefined();
  });
  it('the recorded step renumbered and dropped at the boundary after its end still runs its call', async () => {
    const settled = await settle(beforeTerminal(recorded, []) + FAILS, []);
    expect(settled.error).toBeUndefined();
    expect(settled.response.toolCalls[0]?.invalid).toBeUndefined();
  });
  it('ends in an error with no runnable call, whatever the disagreement and the byte splits (300 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(mutations)),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (name, pick, cuts) => {
          const settled = await settle((mutations[name] as (typeof mutations)[string])(recorded, pick), cuts);
          expect(settled.error).toBeDefined();
          expect(settled.response.toolCalls.every((call) => call.invalid !== undefined)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
