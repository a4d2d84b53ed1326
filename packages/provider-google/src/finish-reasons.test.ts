// Every Gemini finishReason on a turn holding a call, over the AI SDK's recorded tool-call answer
// (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911 packages/google/src/__fixtures__/google-tool-call-gemini3.json
// and google-tool-call.chunks.txt) with its finishReason replaced, replayed from 127.0.0.1.
import { readFileSync } from 'node:fs';
import { AgentHarness } from '@tiny/harness';
import { collectStream, type LanguageModelV1Request } from '@tiny/llm';
import { partsOf, type ReplayServer, replayParts, startReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';

const recorded = JSON.parse(
  readFileSync(new URL('./__fixtures__/google/google-tool-call-gemini3.json', import.meta.url), 'utf8'),
) as { candidates: [{ finishReason?: string; finishMessage?: string }] };
const recordedChunks = readFileSync(new URL('./__fixtures__/google/google-tool-call.sse', import.meta.url), 'utf8');

/** The recorded whole answer with `finishReason` set to `reason` (absent for `undefined`). */
function answerWith(reason: string | undefined): unknown {
  const copy = structuredClone(recorded);
  const [candidate] = copy.candidates;
  delete candidate.finishMessage;
  if (reason === undefined) delete candidate.finishReason;
  else candidate.finishReason = reason;
  return copy;
}

/** The recorded stream with the closing event's `"finishReason":"STOP"` replaced. */
function streamWith(reason: string): string {
  expect(recordedChunks).toContain('"finishReason":"STOP"');
  return recordedChunks.replace('"finishReason":"STOP"', `"finishReason":${JSON.stringify(reason)}`);
}

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.assertDone();
});

const model = () =>
  createGoogle({ baseURL: `${server.url}/v1beta`, apiKey: 'AIza-finish-key' })('gemini-3-pro-preview');
const ask: LanguageModelV1Request = { messages: [{ role: 'user', content: 'Weather in San Francisco?' }] };

const BROKEN: ReadonlyArray<readonly [string, string]> = [
  ['MAX_TOKENS', 'length'],
  ['SAFETY', 'content_filter'],
  ['RECITATION', 'content_filter'],
  ['BLOCKLIST', 'content_filter'],
  ['PROHIBITED_CONTENT', 'content_filter'],
  ['SPII', 'content_filter'],
  ['IMAGE_SAFETY', 'content_filter'],
  ['MALFORMED_FUNCTION_CALL', 'error'],
  ['UNEXPECTED_TOOL_CALL', 'error'],
  ['TOO_MANY_TOOL_CALLS', 'error'],
  ['LANGUAGE', 'error'],
  ['OTHER', 'error'],
  ['FINISH_REASON_UNSPECIFIED', 'error'],
  ['A_REASON_FROM_2027', 'error'],
];

describe('a call from a turn that did not finish with STOP never runs', () => {
  it.each(BROKEN)('%s (whole answer) maps to %s, its call invalid', async (reason, mapped) => {
    server.load({ exchanges: [{ response: { json: answerWith(reason) } }] });
    const response = await model().doGenerate(ask);
    expect(response.finishReason).toBe(mapped);
    expect(response.rawFinishReason).toBe(reason);
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]?.invalid).toContain(reason);
    // the signature is kept even on a refused call: the transcript replays what the model sent
    expect(response.toolCalls[0]?.extraContent).toMatchObject({ google: { thoughtSignature: expect.any(String) } });
  });

  it.each(BROKEN)('%s (streamed) maps to %s, its call invalid', async (reason, mapped) => {
    server.load({
      exchanges: [{ response: { text: streamWith(reason), headers: { 'content-type': 'text/event-stream' } } }],
    });
    const parts = await partsOf((await model().doStream(ask)).stream);
    const response = await collectStream({ stream: replayParts(parts), warnings: [] });
    expect(response.finishReason).toBe(mapped);
    expect(response.toolCalls[0]?.invalid).toContain(reason);
  });

  it('a whole answer without a finishReason holding a call finishes error, its call invalid', async () => {
    server.load({ exchanges: [{ response: { json: answerWith(undefined) } }] });
    const response = await model().doGenerate(ask);
    expect(response.finishReason).toBe('error');
    expect(response.toolCalls[0]?.invalid).toBe(
      `response contained invalid JSON arguments for tool call \`weather_0\` (\`weather\`): the turn ended without a finish reason; raw arguments: {"location":"San Francisco"}`,
    );
  });

  it('STOP with a call is tool_calls, the call valid', async () => {
    server.load({ exchanges: [{ response: { json: answerWith('STOP') } }] });
    const response = await model().doGenerate(ask);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls[0]?.invalid).toBeUndefined();
  });
});

describe('a prompt blocked by promptFeedback', () => {
  const blocked = {
    promptFeedback: {
      blockReason: 'PROHIBITED_CONTENT',
      safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }],
    },
    usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'blockedLacKqGqH0xs0P0O776As',
  };

  it('is a content_filter finish with the block reason, whole and streamed', async () => {
    server.load({
      exchanges: [
        { response: { json: blocked } },
        {
          response: {
            text: `data: ${JSON.stringify(blocked)}\r\n\r\n`,
            headers: { 'content-type': 'text/event-stream' },
          },
        },
      ],
    });
    const whole = await model().doGenerate(ask);
    expect(whole).toMatchObject({
      content: '',
      toolCalls: [],
      finishReason: 'content_filter',
      rawFinishReason: 'PROHIBITED_CONTENT',
    });
    expect(whole.usage.inputTokens).toBe(12);
    const parts = await partsOf((await model().doStream(ask)).stream);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'content_filter',
      rawFinishReason: 'PROHIBITED_CONTENT',
    });
  });
});

describe('through the agent loop', () => {
  it.each(BROKEN.map(([reason]) => reason))('a %s turn runs no tool', async (reason) => {
    const ran: string[] = [];
    const weather = defineTool({
      name: 'weather',
      description: 'Weather for a place.',
      parameters: Type.Object({ location: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: ({ location }) => {
        ran.push(location);
        return 'sunny';
      },
    });
    server.load({
      exchanges: [
        { response: { json: answerWith(reason) } },
        {
          request: { body: { contents: '$any' } },
          response: {
            json: {
              candidates: [
                {
                  content: { role: 'model', parts: [{ text: 'I could not look that up.' }] },
                  finishReason: 'STOP',
                  index: 0,
                },
              ],
            },
          },
        },
      ],
    });
    const run = await new AgentHarness({ model: model(), tools: [weather] }).invoke({}, [
      { role: 'user', content: 'Weather in San Francisco?' },
    ]);
    expect(ran).toEqual([]);
    expect(run.executedTools).toEqual([]);
  });
});

describe('a stream that broke its protocol, through the agent loop', () => {
  it('runs none of the calls it delivered', async () => {
    const ran: string[] = [];
    const weather = defineTool({
      name: 'get_weather',
      description: 'Weather for a city.',
      parameters: Type.Object({ city: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: ({ city }) => {
        ran.push(city);
        return 'sunny';
      },
    });
    // the splice_classes recording's second stream: two calls under one API id
    const fixture = JSON.parse(
      readFileSync(new URL('./__fixtures__/conformance/splice_classes.json', import.meta.url), 'utf8'),
    ) as { exchanges: { response: { text: string } }[] };
    const text = fixture.exchanges[1]?.response.text ?? '';
    expect(text).toContain('call-7f3a');
    server.load({ exchanges: [{ response: { text, headers: { 'content-type': 'text/event-stream' } } }] });
    const stream = new AgentHarness({ model: model(), tools: [weather] }).stream({}, [
      { role: 'user', content: 'Weather in Paris?' },
    ]);
    let failure: unknown;
    try {
      for await (const _event of stream);
      await stream.result;
    } catch (error) {
      failure = error;
    }
    expect(ran).toEqual([]);
    expect(failure).toMatchObject({ kind: 'protocol_violation' });
  });
});
