import { describe, expect, it } from 'vitest';
import { readSseEvents, type SseEvent } from './read-sse-events.js';

function body(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function events(chunks: readonly Uint8Array[]): Promise<SseEvent[]> {
  const list: SseEvent[] = [];
  for await (const event of readSseEvents(body(chunks))) list.push(event);
  return list;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readSseEvents', () => {
  it('joins lines and multi-byte characters split across chunks', async () => {
    const whole = bytes('data: {"content":"Grüße 🌧"}\n\ndata: [DONE]\n\n');
    const chunks = Array.from({ length: whole.length }, (_, index) => whole.subarray(index, index + 1));
    expect(await events(chunks)).toEqual([
      { event: undefined, data: '{"content":"Grüße 🌧"}' },
      { event: undefined, data: '[DONE]' },
    ]);
  });

  it('delivers a last event that lacks its closing newlines', async () => {
    expect(await events([bytes('data: {"a":1}\n\ndata: {"b":2}')])).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: undefined, data: '{"b":2}' },
    ]);
  });

  it('skips comments and reads named events and bare error lines', async () => {
    expect(
      await events([bytes(': keep-alive\n\nevent: error\ndata: {"x":1}\n\nerror: {"error":{"message":"boom"}}\n\n')]),
    ).toEqual([
      { event: 'error', data: '{"x":1}' },
      { event: 'error', data: '{"error":{"message":"boom"}}' },
    ]);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readSseEvents(stream)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
