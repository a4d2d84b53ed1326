import { describe, expect, it } from 'vitest';
import type { HttpFailure } from '../errors/http-failure.js';
import { readJsonBody } from './read-json-body.js';

const errors = {
  refused: (failure: HttpFailure) => new Error(`refused ${failure.kind}`),
  lost: (what: string) => new Error(`lost: ${what}`),
  notJson: (what: string) => new Error(`not json: ${what}`),
};

describe('readJsonBody', () => {
  it('reads JSON with its raw text', async () => {
    expect(await readJsonBody(new Response('{"a":1}'), {}, errors)).toEqual({ raw: '{"a":1}', json: { a: 1 } });
  });
  it('throws the adapter error for each failure', async () => {
    await expect(readJsonBody(new Response('<html>'), {}, errors)).rejects.toThrow(
      'not json: sent a body that is not JSON',
    );
    await expect(
      readJsonBody(new Response('x'.repeat(100)), { limits: { maxResponseBytes: 10 } }, errors),
    ).rejects.toThrow('refused response_too_large');
    const dropped = new Response(
      new ReadableStream({
        start(controller) {
          controller.error(new Error('reset'));
        },
      }),
    );
    await expect(readJsonBody(dropped, {}, errors)).rejects.toThrow('lost: lost the connection while sending the body');
  });
  it('rethrows the abort reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const dropped = new Response(
      new ReadableStream({
        start(stream) {
          stream.error(reason);
        },
      }),
    );
    await expect(readJsonBody(dropped, { signal: controller.signal }, errors)).rejects.toBe(reason);
  });
});
