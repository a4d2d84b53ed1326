import type { LanguageModelV1StreamPart } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

const usage = { inputTokens: 1, outputTokens: 1 };
const call = (id: string): LanguageModelV1StreamPart[] => [
  { type: 'tool_call_start', id, name: 'pay' },
  { type: 'tool_call_delta', id, argumentsDelta: '{"to":"x","cents":1}' },
  { type: 'tool_call_end', id },
];
const finish = (finishReason: 'stop' | 'length' | 'content_filter' | 'tool_calls'): LanguageModelV1StreamPart => ({
  type: 'finish',
  finishReason,
  usage,
});

describe('harness.stream: the first finish of a streamed turn is final', () => {
  it.each([
    ['length then stop', [...call('c1'), finish('length'), finish('stop')]],
    ['content_filter then tool_calls', [...call('c1'), finish('content_filter'), finish('tool_calls')]],
    ['stop then a tool call', [finish('stop'), ...call('c1')]],
    ['tool_calls then another call', [...call('c1'), finish('tool_calls'), ...call('c2')]],
  ] as const)('%s: no call of the turn runs', async (_what, list) => {
    const paid: string[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pay someone.',
      parameters: Type.Object({ to: Type.String(), cents: Type.Integer() }),
      policy: ToolPolicy.classified().withSideEffects({ payment: true }),
      execute: ({ to, cents }) => {
        paid.push(`${to}:${cents}`);
        return 'paid';
      },
    });
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const stream = model.doStream.bind(model);
    let streamed = false;
    model.doStream = async (request) => {
      if (streamed) return stream(request);
      streamed = true;
      return {
        warnings: [],
        stream: (async function* () {
          yield* list;
        })(),
      };
    };
    const run = new AgentHarness({ model, tools: [pay] }).stream({}, [{ role: 'user', content: 'go' }]);
    for await (const _event of run) {
      // drain
    }
    const done = await run.result;
    expect(paid).toEqual([]);
    const first = done.events.find((event) => event.type === 'model_completed');
    expect(first).toMatchObject({ finishReason: 'error' });
  });
});
