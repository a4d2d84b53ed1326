import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { pipeResponseToNode, toSseBytes } from './sse.js';

const ending = {
  failed: (error: unknown) => [{ type: 'error', errorText: `${(error as Error).name}: failed` }, { type: 'finish' }],
  isEnd: (value: unknown) => (value as { type?: string }).type === 'finish',
};

/** A source that yields `values`, then errors with `error`. */
function failing(values: unknown[], error: unknown): ReadableStream<unknown> {
  return new ReadableStream({
    pull(controller) {
      const next = values.shift();
      if (next === undefined) controller.error(error);
      else controller.enqueue(next);
    },
  });
}

// Breaker #E: a value JSON cannot write, or a source that errors, errored the SSE body with no finish.
describe('toSseBytes', () => {
  it('ends with the protocol ending when the source errors or a value cannot be written', async () => {
    const erroring = await new Response(
      toSseBytes(failing([{ type: 'start' }], new TypeError('x')), 'END\n', ending),
    ).text();
    expect(erroring).toBe(
      'data: {"type":"start"}\n\ndata: {"type":"error","errorText":"TypeError: failed"}\n\ndata: {"type":"finish"}\n\nEND\n',
    );
    const unwritable = await new Response(
      toSseBytes(failing([{ type: 'start' }, { n: 1n }], new Error('never')), '', ending),
    ).text();
    expect(unwritable).toBe(
      'data: {"type":"start"}\n\ndata: {"type":"error","errorText":"TypeError: failed"}\n\ndata: {"type":"finish"}\n\n',
    );
  });

  it('adds nothing after an end already written', async () => {
    const text = await new Response(toSseBytes(failing([{ type: 'finish' }], new Error('late')), '', ending)).text();
    expect(text).toBe('data: {"type":"finish"}\n\n');
  });
});

describe('pipeResponseToNode', () => {
  it('never rejects when the body errors: the response ends (real HTTP on 127.0.0.1)', async () => {
    const body = failing(
      [new TextEncoder().encode('data: 1\n\n')],
      new Error('body failed'),
    ) as ReadableStream<Uint8Array>;
    let piped: Promise<void> | undefined;
    const server = createServer((_, res) => {
      piped = pipeResponseToNode(new Response(body), res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(await response.text()).toBe('data: 1\n\n');
      await expect(piped).resolves.toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
