import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectStreamSettled, type LanguageModelV1StreamPart } from '@tiny/llm';
import { createOpenAICompatible } from '@tiny/provider-openai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// Two streamed calls (`ls` and `rm -rf ~`), their argument text split at random points and
// interleaved, each fragment then stripped of its index and/or id at random, ids sent as strings
// or numbers, Ollama-style index reuse or not: whatever the stream, a call that settles runnable
// (neither invalid nor refused) carries exactly one of the two argument objects the model wrote,
// under that call's own name, never a merge, a prefix or the other call's text. Without any
// stripping both calls come out whole. Chunk shape: the OpenAI chat completion chunk
// (`tool_calls[].index`, the id on a call's first fragment); Ollama reuses index 0 for each whole
// call. Served over a real 127.0.0.1 server through the public factory; sized by a run count.

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

const CALLS = [
  { name: 'list', id: 'call_a', numeric: 11, args: '{"cmd":"ls"}' },
  { name: 'wipe', id: 'call_b', numeric: 12, args: '{"cmd":"rm -rf ~"}' },
] as const;

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
  cuts: fc.tuple(fc.array(fc.nat(), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 4 })),
  order: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  numericIds: fc.boolean(),
  ollama: fc.boolean(),
  // Per fragment (in send order): strip the index, strip the id.
  strip: fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 12, maxLength: 12 }),
  mutate: fc.boolean(),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

interface Fragment {
  index?: number;
  id?: string | number;
  name?: string;
  args: string;
}

function stream(input: Scenario): string {
  const groups = CALLS.map((call, which) =>
    pieces(call.args, input.cuts[which] ?? []).map(
      (piece, position): Fragment => ({
        index: input.ollama ? 0 : which,
        ...(position === 0 ? { id: input.numericIds ? call.numeric : call.id, name: call.name } : {}),
        args: piece,
      }),
    ),
  );
  const [first, second] = groups as [Fragment[], Fragment[]];
  const merged: Fragment[] = [];
  if (input.ollama) merged.push(...first, ...second);
  else {
    merged.push(first.shift() as Fragment);
    for (const take of input.order) {
      const next = (take ? first : second).shift() ?? (take ? second : first).shift();
      if (next !== undefined) merged.push(next);
    }
    merged.push(...first, ...second);
  }
  if (input.mutate)
    merged.forEach((fragment, position) => {
      const [noIndex, noId] = input.strip[position % input.strip.length] ?? [false, false];
      if (noIndex) delete fragment.index;
      if (noId) delete fragment.id;
    });
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body = merged.map(({ args, name, ...rest }) =>
    chunk({
      tool_calls: [
        { ...rest, type: 'function', function: { ...(name === undefined ? {} : { name }), arguments: args } },
      ],
    }),
  );
  return `${chunk({ role: 'assistant' })}${body.join('')}${chunk({}, 'tool_calls')}data: [DONE]\n\n`;
}

describe('OpenAI stream: fragments stripped of index or id', () => {
  it('never settles a runnable call other than one the model wrote whole', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (input) => {
        answer = stream(input);
        const model = createOpenAICompatible({ baseURL, apiKey: 'sk-fuzz' })('m');
        const parts: LanguageModelV1StreamPart[] = [];
        for await (const part of (await model.doStream({ messages: [{ role: 'user', content: 'hi' }] })).stream)
          parts.push(part);
        const settled = await collectStreamSettled(
          (async function* () {
            yield* parts;
          })(),
        );
        // A call without a name (a stray fragment at a new index) names no tool: admission refuses it.
        const runnable = settled.response.toolCalls.filter(
          (call) => call.invalid === undefined && call.refused !== true && call.name !== '',
        );
        for (const call of runnable) {
          const written = CALLS.find((candidate) => candidate.name === call.name);
          expect(written, JSON.stringify(call)).toBeDefined();
          expect(call.arguments, JSON.stringify({ call, answer })).toEqual(JSON.parse(written?.args ?? 'null'));
        }
        expect(new Set(runnable.map((call) => call.name)).size).toBe(runnable.length);
        if (!input.mutate) expect(runnable.map((call) => call.name).sort()).toEqual(['list', 'wipe']);
      }),
      { numRuns: propertyRuns(300), seed: 0x5c0f },
    );
  });
});
