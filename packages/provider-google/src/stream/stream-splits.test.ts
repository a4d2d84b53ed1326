// Properties over the AI SDK's recorded Gemini streams (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911
// packages/google/src/__fixtures__/*.chunks.txt, framed as SSE events), read in-process: how the bytes
// are split never changes the turn, and a stream cut anywhere before its finishReason runs no call.
import { readFileSync } from 'node:fs';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamResponse } from './stream-response.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const recorded = (file: string) =>
  new Uint8Array(readFileSync(new URL(`../__fixtures__/google/${file}`, import.meta.url)));
const files = [
  'google-text.sse',
  'google-tool-call-gemini3.sse',
  'google-stream-no-args-tool-call.sse',
  'google-stream-tool-call-arguments.sse',
];

function body(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const point of [...points, bytes.length]) {
    if (point > at) pieces.push(bytes.subarray(at, point));
    at = Math.max(at, point);
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function read(stream: ReadableStream<Uint8Array>) {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of streamResponse(stream, { provider: 'google', warnings: [] })) parts.push(part);
  async function* again() {
    yield* parts;
  }
  const settled = await collectStreamSettled({ stream: again(), warnings: [] });
  return { parts, settled };
}

describe('recorded Gemini streams', () => {
  it.each(files)('%s: any split into writes reads the same turn', async (file) => {
    const bytes = recorded(file);
    const { settled: whole } = await read(body(bytes, []));
    expect(whole.error).toBeUndefined();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (cuts) => {
        const { settled } = await read(body(bytes, cuts));
        expect(settled.error).toBeUndefined();
        expect(settled.response).toEqual(whole.response);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(files.slice(1))('%s: cut anywhere before its finishReason, no call may run', async (file) => {
    const bytes = recorded(file);
    const text = new TextDecoder().decode(bytes);
    const finishEventEnd = text.indexOf('\r\n\r\n', text.indexOf('"finishReason"')) + 4;
    const finishAt = new TextEncoder().encode(text.slice(0, finishEventEnd)).length;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: finishAt - 5 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (cut, splits) => {
          const { parts, settled } = await read(body(bytes.subarray(0, cut), splits));
          expect(parts.some((part) => part.type === 'finish')).toBe(false);
          expect(settled.error).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
          for (const call of settled.response.toolCalls) expect(call.invalid, call.id).toBeDefined();
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('an event that is not JSON', () => {
  it('followed by more events is a bad chunk; as the last event of the body it is a cut stream', async () => {
    const valid = `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'hi' }] }, finishReason: 'STOP' }] })}\r\n\r\n`;
    const encode = (text: string) => new TextEncoder().encode(text);
    const bad = await read(body(encode(`data: {"candidates": [\r\n\r\n${valid}`), []));
    expect(bad.settled.error).toMatchObject({ kind: 'invalid_chunk' });
    const cut = await read(
      body(encode(`data: {"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}\r\n\r\ndata: {"cand`), []),
    );
    expect(cut.settled.error).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
    expect(cut.settled.response.content).toBe('hi');
  });
});

describe('a streamed call still open at the finish', () => {
  it('ends invalid and the turn finishes error (an empty closing text part is no violation)', async () => {
    const event = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;
    const text = [
      event({ candidates: [{ content: { parts: [{ functionCall: { name: 'pay', willContinue: true } }] } }] }),
      event({
        candidates: [
          {
            content: {
              parts: [
                { functionCall: { partialArgs: [{ jsonPath: '$.cents', numberValue: 100 }], willContinue: true } },
              ],
            },
          },
        ],
      }),
      event({ candidates: [{ content: { parts: [{ text: '' }] }, finishReason: 'STOP' }] }),
    ].join('');
    const { parts, settled } = await read(body(new TextEncoder().encode(text), []));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error', rawFinishReason: 'STOP' });
    expect(settled.response.toolCalls[0]?.invalid).toContain('still open');
  });
});
