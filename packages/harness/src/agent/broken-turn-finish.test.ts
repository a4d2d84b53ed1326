import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

function payScenario() {
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
  return { paid, pay };
}

const user = [{ role: 'user' as const, content: 'go' }];

describe('finish reasons are an allow-list', () => {
  it.each(['max_tokens', 'unknown', 'LENGTH', undefined, null, ''])(
    'refuses the calls of a turn ending with %j (only stop, tool_calls and other are normal)',
    async (reason) => {
      const { paid, pay } = payScenario();
      const model = new ScriptedModel({
        steps: [{ toolCalls: [scriptedToolCall('pay', { to: 'x', cents: 1 }, 'c1')] }, { content: 'done' }],
      });
      const generate = model.doGenerate.bind(model);
      model.doGenerate = async (request) => ({ ...(await generate(request)), finishReason: reason as never });
      const run = await new AgentHarness({ model, tools: [pay] }).invoke({}, user);
      expect(paid).toEqual([]);
      expect(run.events.filter((event) => event.type === 'tool_call_refused')).toEqual([
        expect.objectContaining({ callId: 'c1', reason: 'error' }),
      ]);
    },
  );

  it.each(['stop', 'tool_calls', 'other'] as const)('runs the calls of a `%s` turn', async (finishReason) => {
    const { paid, pay } = payScenario();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('pay', { to: 'x', cents: 1 }, 'c1')], finishReason }, { content: 'done' }],
    });
    await new AgentHarness({ model, tools: [pay] }).invoke({}, user);
    expect(paid).toEqual(['x:1']);
  });
});

describe('a stream without a finish part is a broken turn', () => {
  it.each([
    ['dropped mid-call', ['{"to":"x","cents":12'], false],
    ['after a complete call', ['{"to":"x","cents":12}'], true],
  ] as const)('never runs a call of a stream that ended %s', async (_what, pieces, ended) => {
    const { paid, pay } = payScenario();
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    let streamed = false;
    const stream = model.doStream.bind(model);
    model.doStream = async (request) => {
      if (streamed) return stream(request);
      streamed = true;
      return {
        warnings: [],
        stream: (async function* () {
          yield { type: 'tool_call_start' as const, id: 'c1', name: 'pay' };
          for (const piece of pieces) yield { type: 'tool_call_delta' as const, id: 'c1', argumentsDelta: piece };
          if (ended) yield { type: 'tool_call_end' as const, id: 'c1' };
        })(),
      };
    };
    const harness = new AgentHarness({
      model,
      tools: [pay],
      policy: { invalidArgs: 'normalize_then_return_tool_error' },
    });
    const run = harness.stream({}, user);
    for await (const _event of run) {
      // drain
    }
    const done = await run.result;
    expect(paid).toEqual([]);
    expect(done.events.filter((event) => event.type === 'tool_call_refused')).toEqual([
      expect.objectContaining({ callId: 'c1', reason: 'error' }),
    ]);
  });
});
