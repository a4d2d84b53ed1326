import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AgentHarness } from '@tiny/harness';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAiSdk } from './from-ai-sdk.js';
import { mapFinishReason } from './response/map-result-fields.js';

/** An OpenAI-compatible server on 127.0.0.1 whose first answer is a call ending with `finishReason`. */
let finishReason = 'stop';
let turn = 0;
const server: Server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    turn += 1;
    const message =
      turn === 1
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"a"}' } },
            ],
          }
        : { role: 'assistant', content: 'done' };
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'c',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [{ index: 0, message, finish_reason: turn === 1 ? finishReason : 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  });
});
let baseURL = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('finish reasons the AI SDK does not know', () => {
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

  it.each(['model_length', 'insufficient_system_resource', 'abort'])(
    'a call of a turn that ends with %s is refused, not run',
    async (raw) => {
      finishReason = raw;
      turn = 0;
      const model = fromAiSdk(createOpenAICompatible({ name: 'local', baseURL })('m'));
      const run = await new AgentHarness({ model, tools: [writeFile] }).invoke({}, [
        { role: 'user', content: 'write a' },
      ]);
      expect(written).toEqual([]);
      expect(run.executedTools).toEqual([]);
      expect(run.events.filter((event) => event.type === 'tool_call_refused')).toHaveLength(1);
    },
  );

  it('maps other, unknown, interrupted and names outside the spec to error, keeping the raw value', () => {
    expect(mapFinishReason({ unified: 'other', raw: 'model_length' })).toEqual({
      finishReason: 'error',
      rawFinishReason: 'model_length',
    });
    expect(mapFinishReason('unknown')).toEqual({ finishReason: 'error', rawFinishReason: 'unknown' });
    expect(mapFinishReason({ unified: 'interrupted' })).toEqual({
      finishReason: 'error',
      rawFinishReason: 'interrupted',
    });
    expect(mapFinishReason('constructor').finishReason).toBe('error');
    expect(mapFinishReason(undefined).finishReason).toBe('error');
    expect(mapFinishReason('tool-calls').finishReason).toBe('tool_calls');
  });
});
