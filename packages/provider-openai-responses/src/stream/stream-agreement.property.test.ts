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
  'completed id emptied': (events) => {
    const last = events.at(-1) as Event;
    return [...events.slice(0, -1), { ...last, response: { ...(last.response as object), id: '' } }]
      .map((event) => frame(event))
      .join('');
  },
};

function body(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  return new ReadableStream({
    start(controller) {
      let from = 0;
      for (const point of [...points, bytes.length]) {
        if (point > from) controller.enqueue(bytes.slice(from, point));
        from = Math.max(from, point);
      }
      controller.close();
    },
  });
}

async function settle(text: string, cuts: readonly number[]) {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of streamResponse(body(new TextEncoder().encode(text), cuts), { provider: 'openai' }))
    parts.push(part);
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
  it('ends in an error with no runnable call, whatever the disagreement and the byte splits (150 runs)', async () => {
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
      { numRuns: 150 },
    );
  });
});
