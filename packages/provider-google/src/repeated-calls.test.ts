// A degenerate Gemini generation streams the same complete functionCall part once per chunk
// (reported in kcaldas/genie#12 with gemini-3.1-pro-preview: 107 copies of one call in one response).
// The streams here repeat the recorded call event of the AI SDK's google-tool-call.chunks.txt
// (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911 packages/google/src/__fixtures__) byte for byte.
import { readFileSync } from 'node:fs';
import { AgentHarness } from '@tiny/harness';
import { collectStream } from '@tiny/llm';
import { type ReplayServer, startReplayServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';

const [callEvent = '', stopEvent = ''] = readFileSync(
  new URL('./__fixtures__/google/google-tool-call.sse', import.meta.url),
  'utf8',
)
  .split('\r\n\r\n')
  .filter((event) => event !== '')
  .map((event) => `${event}\r\n\r\n`);

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
  createGoogle({ baseURL: `${server.url}/v1beta`, apiKey: 'AIza-repeat-key' })('gemini-3-pro-preview');
const sse = (text: string) => ({ text, headers: { 'content-type': 'text/event-stream' } });
const ask = { messages: [{ role: 'user' as const, content: 'Weather in San Francisco?' }] };

describe('a call repeated across chunks', () => {
  it('is one call: the copies are dropped, each with a warning', async () => {
    expect(callEvent).toContain('"functionCall"');
    server.load({ exchanges: [{ response: sse(callEvent + callEvent + callEvent + stopEvent) }] });
    const response = await collectStream(await model().doStream(ask));
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls.map((call) => [call.id, call.name, call.arguments, call.invalid])).toEqual([
      ['weather_0', 'weather', { location: 'San Francisco' }, undefined],
    ]);
    expect(response.warnings).toEqual([
      expect.objectContaining({ message: expect.stringContaining('call `weather_0` (`weather`) again') }),
      expect.objectContaining({ message: expect.stringContaining('call `weather_0` (`weather`) again') }),
    ]);
  });

  it('in a whole answer too, while a call with other arguments or its own API id stays', async () => {
    const part = { functionCall: { name: 'weather', args: { location: 'San Francisco' } } };
    server.load({
      exchanges: [
        {
          response: {
            json: {
              candidates: [
                {
                  content: {
                    role: 'model',
                    parts: [
                      part,
                      part,
                      { functionCall: { name: 'weather', args: { location: 'Oslo' } } },
                      { functionCall: { id: 'a', name: 'weather', args: { location: 'Oslo' } } },
                      { functionCall: { id: 'b', name: 'weather', args: { location: 'Oslo' } } },
                    ],
                  },
                  finishReason: 'STOP',
                  index: 0,
                },
              ],
            },
          },
        },
      ],
    });
    const response = await model().doGenerate(ask);
    expect(response.toolCalls.map((call) => [call.id, (call.arguments as { location: string }).location])).toEqual([
      ['weather_0', 'San Francisco'],
      ['weather_2', 'Oslo'],
      ['a', 'Oslo'],
      ['b', 'Oslo'],
    ]);
    expect(response.toolCalls.every((call) => call.invalid === undefined)).toBe(true);
    expect(response.warnings).toHaveLength(1);
  });

  it('through the agent loop the tool runs once and the next request replays one call and one result', async () => {
    const ran: string[] = [];
    const weather = defineTool({
      name: 'weather',
      description: 'Weather for a place.',
      parameters: Type.Object({ location: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: ({ location }) => {
        ran.push(location);
        return 'foggy, 14 °C';
      },
    });
    server.load({
      exchanges: [
        { response: sse(callEvent + callEvent + stopEvent) },
        {
          request: { body: { contents: '$any' } },
          response: {
            json: {
              candidates: [
                { content: { role: 'model', parts: [{ text: 'Foggy, 14 °C.' }] }, finishReason: 'STOP', index: 0 },
              ],
            },
          },
        },
      ],
    });
    const stream = new AgentHarness({ model: model(), tools: [weather] }).stream({}, [
      { role: 'user', content: 'Weather in San Francisco?' },
    ]);
    for await (const _event of stream);
    const run = await stream.result;
    expect(ran).toEqual(['San Francisco']);
    expect(run.text).toBe('Foggy, 14 °C.');
    const replayed = JSON.stringify(server.requests[1]?.body);
    expect(replayed.split('"functionCall"')).toHaveLength(2);
    expect(replayed.split('"functionResponse"')).toHaveLength(2);
  });
});

describe('two calls under one API id in a whole answer', () => {
  it('break the turn: both invalid, the finish error, and through the agent loop neither runs', async () => {
    const ran: string[] = [];
    const weather = defineTool({
      name: 'weather',
      description: 'Weather for a place.',
      parameters: Type.Object({ location: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: ({ location }) => {
        ran.push(location);
        return 'ok';
      },
    });
    const answer = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { id: 'call-1', name: 'weather', args: { location: 'Paris' } } },
              { functionCall: { id: 'call-1', name: 'weather', args: { location: 'Oslo' } } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
    };
    const done = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Sorry.' }] }, finishReason: 'STOP', index: 0 }],
    };
    server.load({
      exchanges: [{ response: { json: answer } }, { response: { json: answer } }, { response: { json: done } }],
    });
    const response = await model().doGenerate(ask);
    expect(response.finishReason).toBe('error');
    expect(response.toolCalls.every((call) => call.invalid !== undefined)).toBe(true);
    await new AgentHarness({ model: model(), tools: [weather] }).invoke({}, [{ role: 'user', content: 'Weather?' }]);
    expect(ran).toEqual([]);
  });
});
