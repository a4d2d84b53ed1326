// A property over what may follow a finish reason (the providers3-google-r2 breaks, a01/a05/a07/a08):
// a call finished with STOP runs only when everything after the finish is benign (empty text
// parts, usage, blank or [DONE] events) and the body ends cleanly; any other trailing event, in
// any position among benign ones, in any byte split, breaks the turn and refuses the call.
import { collectStreamSettled } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamResponse } from './stream-response.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const chunk = (parts: unknown[], finishReason?: unknown, extra: Record<string, unknown> = {}) => ({
  responseId: 'r1',
  candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }) }],
  ...extra,
});
const call = { functionCall: { name: 'delete_files', args: { path: '/' } } };

const BENIGN = [
  data(chunk([{ text: '' }])),
  data(chunk([], undefined, { usageMetadata: { totalTokenCount: 9 } })),
  'data: [DONE]\n\n',
  'data:  \n\n',
  ': keep-alive\n\n',
];
const BAD = [
  data(chunk([{ text: '', ...call }])),
  data(chunk([{ text: 'more' }])),
  data(chunk([{ thoughtSignature: 'S' }])),
  data(chunk([{ text: '' }], 'STOP')),
  data(chunk([], 3)),
  data(chunk([], 'SAFETY')),
  data({ ...chunk([{ text: '' }]), responseId: 'r2' }),
  data([chunk([{ text: '' }]), { error: { code: 500, message: 'boom' } }]),
  data([chunk([{ text: '' }]), [chunk([])]]),
  data({ error: { code: 500, message: 'boom', status: 'INTERNAL' } }),
  'event: error\ndata: [DONE]\n\n',
  'event: error\ndata:  \n\n',
  'event: Error\ndata: {"candidates": []}\n\n',
  'data: not json\n\n',
  'data: {"cut": ',
];

function body(text: string, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  return new ReadableStream({
    start(controller) {
      let at = 0;
      for (const point of [...points, bytes.length]) {
        if (point > at) controller.enqueue(bytes.subarray(at, point));
        at = Math.max(at, point);
      }
      controller.close();
    },
  });
}

describe('after the finish reason', () => {
  it('the call runs only when every trailing event is benign', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...BENIGN), { maxLength: 4 }),
        fc.option(fc.constantFrom(...BAD), { nil: undefined }),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (benign, bad, at, cuts) => {
          const trailing = [...benign];
          // a cut-off event can only be last
          if (bad === 'data: {"cut": ') trailing.push(bad);
          else if (bad !== undefined) trailing.splice(at % (trailing.length + 1), 0, bad);
          const text = data(chunk([call], 'STOP')) + trailing.join('');
          const settled = await collectStreamSettled(
            streamResponse(body(text, cuts), { provider: 'google', warnings: [] }),
          );
          const made = settled.response.toolCalls[0];
          if (bad === undefined) {
            expect(settled.error).toBeUndefined();
            expect(made?.refused).toBeUndefined();
            expect(settled.response.finishReason).toBe('tool_calls');
          } else {
            expect(settled.error).toBeDefined();
            expect(made?.refused).toBe(true);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
