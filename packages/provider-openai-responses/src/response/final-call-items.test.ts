import { collectStreamSettled } from '@tiny/llm';
import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../presets/openai.js';

// Found by the refused-call tester: a final `function_call` item with no `status`, and two output
// items under one item id (with different call ids), ran. Response object shape from the OpenAI API
// reference (the response object, `output[]` items of type `function_call`); the breaks are
// scripted, as a relay or a compatible server might send them.

let reply = { contentType: 'application/json', body: '' };
const server = useLoopbackServer();
server.handle((_request, response) => {
  response.writeHead(200, { 'content-type': reply.contentType }).end(reply.body);
});

const fc = (id: string, callId: string, status?: string) => ({
  type: 'function_call',
  id,
  call_id: callId,
  name: 'delete_file',
  arguments: '{"path":"/x"}',
  ...(status === undefined ? {} : { status }),
});
const response = (output: unknown[]) => ({ id: 'resp_1', object: 'response', status: 'completed', output });
const model = () => openaiResponses({ baseURL: `${server.url()}/v1`, apiKey: 'sk-final-items-0123456789' })('gpt-5.1');
const request = { messages: [{ role: 'user' as const, content: 'go' }] };

async function whole(output: unknown[]) {
  reply = { contentType: 'application/json', body: JSON.stringify(response(output)) };
  return model().doGenerate(request);
}

async function streamed(output: unknown[]) {
  const events = [
    { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
    { type: 'response.completed', response: response(output) },
  ];
  reply = {
    contentType: 'text/event-stream',
    body: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''),
  };
  return collectStreamSettled((await model().doStream(request)).stream);
}

const cases: [string, unknown[]][] = [
  ['a function_call item with no status', [fc('fc_1', 'call_1')]],
  ['two items under one item id', [fc('fc_1', 'call_1', 'completed'), fc('fc_1', 'call_2', 'completed')]],
];

describe('final call items that cannot be trusted', () => {
  for (const [name, output] of cases) {
    it(`${name} is a protocol violation, whole or streamed: no call runs`, async () => {
      await expect(whole(output)).rejects.toMatchObject({ kind: 'protocol_violation' });
      const settled = await streamed(output);
      expect(settled.error).toMatchObject({ kind: 'protocol_violation' });
      expect(settled.response.toolCalls.every((call) => call.invalid !== undefined)).toBe(true);
    });
  }

  it('a completed item with its own id still runs', async () => {
    const generated = await whole([fc('fc_1', 'call_1', 'completed'), fc('fc_2', 'call_2', 'completed')]);
    expect(generated.toolCalls.map((call) => [call.id, call.invalid])).toEqual([
      ['call_1', undefined],
      ['call_2', undefined],
    ]);
  });
});
