import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../create-openai-compatible.js';

// Found by the refused-call tester: a whole completion with two `tool_calls` under one id was
// renamed (`id-{position}`) and both calls ran, while every other adapter (and this one's stream)
// refuses them. Completion shape from the OpenAI API reference (the chat completion object,
// `choices[].message.tool_calls[]`); the repeated id is scripted, as a relay that merged two
// responses would send it.

let body = '';
const server = useLoopbackServer();
server.handle((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(body);
});

const toolCall = (id: string | undefined, cmd: string) => ({
  ...(id === undefined ? {} : { id }),
  type: 'function',
  function: { name: 'bash', arguments: JSON.stringify({ cmd }) },
});

async function generate(calls: unknown[]) {
  body = JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    model: 'm',
    choices: [
      { index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' },
    ],
  });
  const model = createOpenAICompatible({ baseURL: `${server.url()}/v1`, apiKey: 'sk-secret' })('m');
  return model.doGenerate({
    messages: [{ role: 'user', content: 'go' }],
    tools: [
      { name: 'bash', description: 'x', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
    ],
  });
}

describe('a whole completion with two tool calls under one id', () => {
  it('refuses every call of the message, each keeping its raw argument text', async () => {
    const response = await generate([
      toolCall('call_1', 'ls'),
      toolCall('call_1', 'rm -rf ~'),
      toolCall('call_2', 'pwd'),
    ]);
    expect(response.toolCalls.map((call) => [call.id, call.refused, call.rawArguments])).toEqual([
      ['call_1', true, '{"cmd":"ls"}'],
      ['call_1', true, '{"cmd":"rm -rf ~"}'],
      ['call_2', true, '{"cmd":"pwd"}'],
    ]);
  });

  it('distinct ids run; missing ids are minted unique, never clashing with a wire id', async () => {
    const response = await generate([toolCall('tool-1', 'a'), toolCall(undefined, 'b'), toolCall(undefined, 'c')]);
    expect(response.toolCalls.map((call) => [call.id, call.refused])).toEqual([
      ['tool-1', undefined],
      ['tool-1-1', undefined],
      ['tool-2', undefined],
    ]);
  });
});
