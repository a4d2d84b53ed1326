import { describe, expect, it } from 'vitest';
import { MAX_ERROR_BODY_CHARS, readErrorBody } from './read-error-body.js';

describe('readErrorBody', () => {
  it('parses a JSON body and keeps its text', async () => {
    const read = await readErrorBody(new Response('{"error":{"message":"x"}}', { status: 400 }));
    expect(read).toEqual({
      text: '{"error":{"message":"x"}}',
      json: { error: { message: 'x' } },
      fallback: '{"error":{"message":"x"}}',
    });
  });
  it('cuts an endless body to its head and keeps a 500-character fallback', async () => {
    const read = await readErrorBody(new Response('x'.repeat(MAX_ERROR_BODY_CHARS * 10), { status: 502 }));
    expect(read.text.length).toBe(MAX_ERROR_BODY_CHARS * 4);
    expect(read.json).toBeUndefined();
    expect(read.fallback?.length).toBe(500);
  });
  it('an empty or unreadable body is empty text, no fallback', async () => {
    expect(await readErrorBody(new Response('  ', { status: 500 }))).toEqual({
      text: '  ',
      json: undefined,
      fallback: undefined,
    });
    const broken = new Response(
      new ReadableStream({
        start(controller) {
          controller.error(new Error('reset'));
        },
      }),
      { status: 500 },
    );
    expect(await readErrorBody(broken)).toEqual({ text: '', json: undefined, fallback: undefined });
  });
});
