import { readSseEvents, type SseEvent } from '@tiny/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// Server-sent event framing (the WHATWG HTML "server-sent events" parsing rules): lines end in
// CRLF, LF or CR; a blank line ends an event; an event with an `event:` name but no `data:` line
// is still delivered by readSseEvents (with data ''), so an adapter can fail on `event: error`
// sent without data. For random events, one line-end style per stream and random chunk splits
// (a CRLF split across two chunks included), readSseEvents delivers exactly the events written,
// in order. Sized by a run count.

const name = fc.constantFrom(undefined, 'error', 'ping', 'message_start', 'response.completed', 'relay_note');
const value = fc.string({ maxLength: 12 }).filter((text) => !/[\r\n]/.test(text));
const event = fc.record({
  name,
  data: fc.array(value, { maxLength: 3 }),
  comment: fc.boolean(),
});

function serialize(events: readonly { name?: string; data: string[]; comment: boolean }[], end: string): string {
  let text = '';
  for (const item of events) {
    if (item.comment) text += `: keep-alive${end}`;
    if (item.name !== undefined) text += `event: ${item.name}${end}`;
    for (const line of item.data) text += `data: ${line}${end}`;
    text += end;
  }
  return text;
}

function expected(events: readonly { name?: string; data: string[] }[]): SseEvent[] {
  return events.flatMap((item): SseEvent[] => {
    if (item.data.length > 0) return [{ event: item.name, data: item.data.join('\n') }];
    return item.name === undefined ? [] : [{ event: item.name, data: '' }];
  });
}

async function read(bytes: Uint8Array, cuts: readonly number[]): Promise<SseEvent[]> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const out: SseEvent[] = [];
  for await (const item of readSseEvents(body)) out.push({ event: item.event, data: item.data });
  return out;
}

describe('readSseEvents framing', () => {
  it('delivers every event written, data-less named ones too, whatever the line ends and chunk splits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r', '\r\n'),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (events, end, cuts) => {
          const bytes = new TextEncoder().encode(serialize(events, end));
          expect(await read(bytes, cuts)).toEqual(expected(events));
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
