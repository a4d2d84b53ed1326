import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { createOpenAICompatible } from '@tiny/provider-openai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// Streamed `tool_calls` fragments that put one call id at two indexes (the first index's call and
// a second index's, in any interleaving, the id repeated or not on later fragments, with an
// unrelated call beside them) must break the turn: a non-retryable protocol_violation and no
// runnable call, never one call merged from both. Chunk shape: the OpenAI chat completion chunk
// (`tool_calls[].index`, the id on a call's first fragment). Served over a real 127.0.0.1 server,
// through the public factory; sized by a run count.

let answer = '';
let server: Server;
let baseURL = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Fragment {
  readonly index: number;
  readonly id?: string;
  readonly name?: string;
  readonly args: string;
}

/** Splits `text` at the given cut points into argument pieces. */
function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const point of points) {
    out.push(text.slice(last, point));
    last = point;
  }
  out.push(text.slice(last));
  return out;
}

const scenario = fc.record({
  first: fc.integer({ min: 0, max: 3 }),
  offset: fc.integer({ min: 1, max: 3 }),
  cutsA: fc.array(fc.nat(), { maxLength: 3 }),
  cutsB: fc.array(fc.nat(), { maxLength: 3 }),
  repeatId: fc.boolean(),
  // Where the second index's id is first named: on its first fragment, or only on a later one.
  idLate: fc.boolean(),
  other: fc.boolean(),
  order: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function stream(input: Scenario): string {
  const [a, b] = [input.first, input.first + input.offset];
  const group = (index: number, args: string, cuts: readonly number[], late: boolean): Fragment[] =>
    pieces(args, cuts).map((piece, position) => ({
      index,
      ...(position === 0 ? { name: 'bash' } : {}),
      ...((late ? position === 1 : position === 0) || (input.repeatId && position > 0) ? { id: 'call_X' } : {}),
      args: piece,
    }));
  const groupA = group(a, '{"cmd":"ls"}', input.cutsA, false);
  // A second fragment is needed to name the id late.
  const groupB = group(b, '{"cmd":"rm -rf ~"}', input.idLate ? [...input.cutsB, 3] : input.cutsB, input.idLate);
  if (!groupB.some((fragment) => fragment.id === 'call_X')) groupB.push({ index: b, id: 'call_X', args: '' });
  // Interleave, keeping each group's order and A's first fragment first (it claims the id).
  const merged: Fragment[] = [groupA.shift() as Fragment];
  for (const take of input.order) {
    const from = take ? groupA : groupB;
    const next = from.shift() ?? (take ? groupB : groupA).shift();
    if (next !== undefined) merged.push(next);
  }
  merged.push(...groupA, ...groupB);
  if (input.other) merged.splice(1, 0, { index: b + 1, id: 'call_other', name: 'bash', args: '{"cmd":"pwd"}' });
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body = merged.map((fragment) =>
    chunk({
      tool_calls: [
        {
          index: fragment.index,
          ...(fragment.id === undefined ? {} : { id: fragment.id }),
          type: 'function',
          function: { ...(fragment.name === undefined ? {} : { name: fragment.name }), arguments: fragment.args },
        },
      ],
    }),
  );
  return `${chunk({ role: 'assistant' })}${body.join('')}${chunk({}, 'tool_calls')}data: [DONE]\n\n`;
}

describe('OpenAI stream: one call id at two indexes', () => {
  it('always breaks the turn, never runs a merged or any other call', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        answer = stream(input);
        const model = createOpenAICompatible({ baseURL, apiKey: 'sk-fuzz' })('m');
        const parts: LanguageModelV1StreamPart[] = [];
        for await (const part of (await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream)
          parts.push(part);
        const last = parts.at(-1);
        expect(last?.type === 'error' ? last.error : undefined).toMatchObject({
          kind: 'protocol_violation',
          isRetryable: false,
        });
        const settled = await collectStreamSettled(
          (async function* () {
            yield* parts;
          })(),
        );
        for (const call of settled.response.toolCalls) expect(call.invalid, JSON.stringify(call)).toBeDefined();
      }),
      { numRuns: propertyRuns(150), seed: 0x51d },
    );
  });
});
