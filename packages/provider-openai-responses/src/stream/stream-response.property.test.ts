// Properties of the stream reader over recorded traffic (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911
// openai-reasoning-encrypted-content.1.chunks.txt, kept in __fixtures__/responses/), sized by run counts.
import { readFileSync } from 'node:fs';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeReplayItems } from '../request/replay-items.js';
import { parseResponse } from '../response/parse-response.js';
import { streamResponse } from './stream-response.js';

const fixtures = new URL('../__fixtures__/responses/', import.meta.url);
const steps = [1, 2, 3, 4].map((step) => readFileSync(new URL(`reasoning-agent-run.${step}.sse`, fixtures), 'utf8'));

type Event = Record<string, unknown> & { type: string };

function events(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Event);
}

const sse = (list: readonly Event[]) =>
  list.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

function body(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) chunks.push(bytes.slice(from, point));
    from = Math.max(from, point);
  }
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function read(text: string, cuts: readonly number[] = []) {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of streamResponse(body(new TextEncoder().encode(text), cuts), { provider: 'openai' }))
    parts.push(part);
  return collectStreamSettled(
    (async function* () {
      yield* parts;
    })(),
  );
}

describe('the stream reader', () => {
  it('reads every recorded step the same however the bytes are split', async () => {
    const whole = await Promise.all(steps.map((text) => read(text)));
    expect(whole[0]?.response.toolCalls[0]?.arguments).toEqual({ a: 12, b: 7, op: 'add' });
    expect(whole[3]?.response.content).toBe('The final result is **570**.');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3 }), fc.array(fc.nat(), { maxLength: 40 }), async (step, cuts) => {
        const split = await read(steps[step] as string, cuts);
        expect(split).toEqual(whole[step]);
      }),
      { numRuns: 150 },
    );
  });

  it('reads each recorded step as the whole body of its response.completed reads', async () => {
    for (const text of steps) {
      const { response: streamed } = await read(text);
      const final = events(text).find((event) => event.type === 'response.completed')?.response;
      const whole = parseResponse(final, JSON.stringify(final), { provider: 'openai' });
      expect(streamed).toMatchObject({
        content: whole.content,
        toolCalls: whole.toolCalls,
        finishReason: whole.finishReason,
        usage: whole.usage,
      });
      // The API encrypts a reasoning item anew for every event that carries it (the recording's
      // output_item.added, output_item.done and response.completed hold three ciphertexts of one
      // item): the stream keeps the `done` one; everything else of the items is the same.
      const items = (signature: string | undefined) =>
        signature === undefined
          ? undefined
          : decodeReplayItems(signature)?.map((item) => ({
              ...item,
              encrypted_content: typeof item.encrypted_content,
            }));
      expect(items(streamed.reasoningSignature)).toEqual(items(whole.reasoningSignature));
      expect(streamed.reasoning ?? '').toBe(whole.reasoning ?? '');
    }
  });

  it('never yields a runnable call that the recorded response did not make, whatever runs of other responses are spliced in, or events repeated, dropped or swapped', async () => {
    const own = events(steps[0] as string);
    const foreign = [...events(steps[1] as string), ...events(steps[2] as string)];
    /** Every output item of the foreign responses as its run of events, `output_item.added` to `.done`. */
    const items = foreign.reduce<Event[][]>((runs, event) => {
      if (event.type === 'response.output_item.added') runs.push([]);
      if (event.output_index !== undefined && runs.length > 0) runs[runs.length - 1]?.push(event);
      return runs;
    }, []);
    const original = (await read(steps[0] as string)).response.toolCalls.map((call) => JSON.stringify(call));
    const mutation = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        from: fc.nat(),
        length: fc.integer({ min: 1, max: 20 }),
      }),
      fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), from: fc.nat(), length: fc.constant(1) }),
      fc.record({ kind: fc.constant('drop' as const), at: fc.nat(), from: fc.nat(), length: fc.constant(1) }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), from: fc.nat(), length: fc.constant(1) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const list = [...own];
        for (const { kind, at, from, length } of mutations) {
          const index = at % (list.length + 1);
          if (kind === 'insert') {
            // a run of another stream's events, as a relay merging two streams splices them: one
            // whole output item (added … done) half the time, else any slice
            const item = items[from % items.length] as Event[];
            const start = from % foreign.length;
            list.splice(index, 0, ...(length % 2 === 0 ? item : foreign.slice(start, start + length)));
          } else if (kind === 'repeat') list.splice(index, 0, list[from % list.length] as Event);
          else if (kind === 'drop') list.splice(index % list.length, 1);
          else {
            const other = from % list.length;
            const here = index % list.length;
            [list[here], list[other]] = [list[other] as Event, list[here] as Event];
          }
        }
        const { response } = await read(sse(list));
        for (const call of response.toolCalls) {
          if (call.invalid === undefined) expect(original).toContain(JSON.stringify(call));
        }
      }),
      { numRuns: 300 },
    );
  });
});
