import { collectStreamSettled } from '@tiny/llm';
import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from '../create-anthropic.js';

// Found by the refused-call tester: a `server_tool_use` block and a `tool_use` block sharing one id
// ran the `tool_use`, though a tool result for that id would be ambiguous. Block shapes from the
// Anthropic Messages API reference (content blocks `server_tool_use`, `tool_use`; the streaming
// guide's `content_block_start`); the shared id is scripted, as a relay might send it.

let reply = { contentType: 'application/json', body: '' };
const server = useLoopbackServer();
server.handle((_request, response) => {
  response.writeHead(200, { 'content-type': reply.contentType }).end(reply.body);
});

const blocks = (id: string) => [
  { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
  { type: 'tool_use', id, name: 'run', input: { cmd: 'evil' } },
];
const model = () => createAnthropic({ baseURL: `${server.url()}/v1`, apiKey: 'sk-ant-secret-0000' })('claude-x');
const request = {
  messages: [{ role: 'user' as const, content: 'go' }],
  tools: [{ name: 'run', description: 'x', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }],
};

async function whole(id: string) {
  reply = {
    contentType: 'application/json',
    body: JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: blocks(id),
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    }),
  };
  return model().doGenerate(request);
}

async function streamed(id: string) {
  const events: Record<string, unknown>[] = [
    {
      type: 'message_start',
      message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: {} },
    },
  ];
  for (const [index, block] of blocks(id).entries()) {
    events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
    });
    events.push({ type: 'content_block_stop', index });
  }
  events.push({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } });
  events.push({ type: 'message_stop' });
  reply = {
    contentType: 'text/event-stream',
    body: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''),
  };
  return collectStreamSettled((await model().doStream(request)).stream);
}

describe('a tool_use sharing its id with a server tool block', () => {
  it('whole: every call is refused', async () => {
    const response = await whole('srvtoolu_1');
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]?.refused).toBe(true);
    expect(response.toolCalls[0]?.invalid).toMatch(/server tool block/);
  });

  it('streamed: a protocol violation, no call runs', async () => {
    const settled = await streamed('srvtoolu_1');
    expect(settled.error).toMatchObject({ kind: 'protocol_violation' });
    expect(settled.response.toolCalls.every((call) => call.invalid !== undefined)).toBe(true);
  });

  it('distinct ids: the tool_use runs, whole and streamed', async () => {
    const response = await whole('toolu_1');
    expect(response.toolCalls.map((call) => [call.id, call.refused, call.arguments])).toEqual([
      ['toolu_1', undefined, { cmd: 'evil' }],
    ]);
    const settled = await streamed('toolu_1');
    expect(settled.error).toBeUndefined();
    expect(settled.response.toolCalls.map((call) => [call.id, call.invalid])).toEqual([['toolu_1', undefined]]);
  });
});
