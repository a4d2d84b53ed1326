import { AgentHarness } from '@tiny/harness';
import { describeHostileServer, type HostileServerWire, useLoopbackServer } from '@tiny/provider-tests';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';
import { OpenAICompatibleCallError } from './errors/openai-compatible-call-error.js';

// Hostile servers (issue 34's breakers), run by the shared suite over real 127.0.0.1 servers, then
// the harness over the same wire: a turn with a broken ending never runs its calls. Shapes from
// the OpenAI API reference (the chat completion object and chunk); the raw finish reasons are
// what OpenAI-compatible servers send (DeepSeek's insufficient_system_resource, Gemini's
// compatibility layer's MAX_TOKENS and SAFETY, vLLM's abort).

const completion = (finishReason: string, calls: boolean) => ({
  id: 'c1',
  object: 'chat.completion',
  model: 'm',
  choices: [
    {
      index: 0,
      message: calls
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"a"}' } },
            ],
          }
        : { role: 'assistant', content: 'done' },
      finish_reason: finishReason,
    },
  ],
});

const chunk = (value: unknown) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [value] })}\n\n`;

const wire: HostileServerWire = {
  path: '/v1/chat/completions',
  keyHeader: 'authorization',
  turn: (raw, withCall) => {
    const delta = withCall
      ? {
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"a"}' } },
          ],
        }
      : { content: 'done' };
    return {
      json: completion(raw, withCall),
      sse: `${chunk({ index: 0, delta })}${chunk({ index: 0, delta: {}, finish_reason: raw })}data: [DONE]\n\n`,
    };
  },
  brokenEndings: [
    ['model_length', 'length'],
    ['insufficient_system_resource', 'error'],
    ['abort', 'error'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['recitation', 'content_filter'],
    ['never_heard_of_it', 'error'],
  ],
  giantEventOpening: 'data: {"choices":[{"index":0,"delta":{"content":"',
  keepAlives: ['event: ping\ndata: {"type":"ping"}\n\n', ': keep-alive\n\n'],
};

describeHostileServer({
  name: 'OpenAI-compatible against a hostile server',
  create: (settings) => createOpenAICompatible(settings)('m'),
  errorClass: OpenAICompatibleCallError,
  wire,
});

describe('a broken ending under the harness', () => {
  const api = useLoopbackServer();
  const written: string[] = [];
  const writeFile = defineTool({
    name: 'write_file',
    description: 'Write a file.',
    parameters: Type.Object({ path: Type.String() }),
    policy: ToolPolicy.classified().withSideEffects({ writesFiles: true }),
    execute: ({ path }) => {
      written.push(path);
      return 'written';
    },
  });

  it.each(wire.brokenEndings)('a turn that ends with %s (%s) does not run its calls, streamed or not', async (raw) => {
    for (const streaming of [false, true]) {
      let turn = 0;
      api.handle((_request, response, sent) => {
        turn += 1;
        const body = wire.turn(turn === 1 ? raw : 'stop', turn === 1);
        if ((JSON.parse(sent) as { stream?: boolean }).stream)
          response.writeHead(200, { 'content-type': 'text/event-stream' }).end(body.sse);
        else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body.json));
      });
      const harness = new AgentHarness({
        model: createOpenAICompatible({ baseURL: `${api.url()}/v1` })('m'),
        tools: [writeFile],
      });
      const messages = [{ role: 'user' as const, content: 'write a' }];
      let run: Awaited<ReturnType<typeof harness.invoke>>;
      if (streaming) {
        const stream = harness.stream({}, messages);
        for await (const _event of stream);
        run = await stream.result;
      } else run = await harness.invoke({}, messages);
      expect(written).toEqual([]);
      expect(run.executedTools).toEqual([]);
      expect(run.events.filter((event) => event.type === 'tool_call_refused')).toHaveLength(1);
    }
  });
});
