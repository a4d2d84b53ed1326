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

describe('readSseEvents: events without data', () => {
  it('delivers a named event without a data line, which the SSE spec would drop', async () => {
    expect(await events([bytes('data: {"a":1}\n\nevent: error\n\n')])).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: 'error', data: '' },
    ]);
  });

  it('delivers it at the end of the body without its blank line, and with an empty data line', async () => {
    expect(await events([bytes('event: error')])).toEqual([{ event: 'error', data: '' }]);
    expect(await events([bytes('event: error\ndata:\n\n')])).toEqual([{ event: 'error', data: '' }]);
  });

  it('reads CR and CRLF line ends, split across chunks, in order', async () => {
    const whole = bytes('event: ping\r\n\r\ndata: 1\r\revent: error\r\rdata: 2\r\n\r\n');
    const chunks = Array.from({ length: whole.length }, (_, index) => whole.subarray(index, index + 1));
    const expected = [
      { event: 'ping', data: '' },
      { event: undefined, data: '1' },
      { event: 'error', data: '' },
      { event: undefined, data: '2' },
    ];
    expect(await events(chunks)).toEqual(expected);
    expect(await events([whole])).toEqual(expected);
  });

  it('delivers nothing for a stream of comments and an id alone', async () => {
    expect(await events([bytes(': hi\n\n: still here\n\nid: 4\n\n')])).toEqual([]);
  });

  it('marks a plain JSON body as whole, without a name', async () => {
    expect(await events([bytes('{"error":{"message":"boom"}}')])).toEqual([
      { event: undefined, data: '{"error":{"message":"boom"}}', whole: true },
    ]);
  });
});

describe('readSseEvents after the terminal event', () => {
  /** A body that sends `text` and then stays open (or errors, with `fail`). */
  function openBody(text: string, fail?: Error): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes(text));
        if (fail !== undefined) setTimeout(() => controller.error(fail), 10);
      },
      cancel() {
        cancelled = true;
      },
    });
    return { stream, cancelled: () => cancelled };
  }
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const list: string[] = [];
    for await (const event of readSseEvents(stream, { isEnded: () => list.includes('[DONE]') })) list.push(event.data);
    return list;
  };

  it('ends normally and cancels a body kept open after the terminal event (not after idleTimeoutMs)', async () => {
    const { stream, cancelled } = openBody('data: {"a":1}\n\ndata: [DONE]\n\n\n');
    expect(await read(stream)).toEqual(['{"a":1}', '[DONE]']);
    expect(cancelled()).toBe(true);
  });

  it('still delivers what arrives within the grace', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('data: [DONE]\n\n'));
        setTimeout(() => controller.enqueue(bytes('event: error\ndata: {}\n\n')), 10);
      },
    });
    expect(await read(stream)).toEqual(['[DONE]', '{}']);
  });

  it('throws for half an event held when the grace passes, or when the connection drops', async () => {
    await expect(read(openBody('data: [DONE]\n\ndata: {"err').stream)).rejects.toMatchObject({
      kind: 'response_timeout',
    });
    await expect(read(openBody('data: [DONE]\n\nevent: error\n', new Error('reset')).stream)).rejects.toThrow('reset');
  });

  it('ends normally when the connection drops at an event boundary after the terminal event', async () => {
    expect(await read(openBody('data: [DONE]\n\n', new Error('reset')).stream)).toEqual(['[DONE]']);
  });

  it('throws a drop before the terminal event', async () => {
    await expect(read(openBody('data: {"a":1}\n\n', new Error('reset')).stream)).rejects.toThrow('reset');
  });
});
