import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

function setup(finishReason: 'length' | 'content_filter' | 'error' | 'tool_calls') {
  const ran: string[] = [];
  const send = defineTool({
    name: 'send',
    description: 'Send a message.',
    parameters: Type.Object({ to: Type.String() }),
    policy: ToolPolicy.classified().withSideEffects({ network: true }),
    execute: ({ to }) => {
      ran.push(to);
      return 'sent';
    },
  });
  const model = new ScriptedModel({
    steps: [
      {
        toolCalls: [scriptedToolCall('send', { to: 'a' }, 'c1'), scriptedToolCall('send', { to: 'b' }, 'c2')],
        finishReason,
      },
      { content: 'ok' },
    ],
  });
  return { ran, model, send };
}

describe('calls from a broken model turn', () => {
  it.each(['length', 'content_filter', 'error'] as const)(
    'refuses every call of a `%s` turn by default',
    async (reason) => {
      const { ran, model, send } = setup(reason);
      const run = await new AgentHarness({ model, tools: [send] }).invoke({}, [{ role: 'user', content: 'go' }]);
      expect(ran).toEqual([]);
      expect(run.toolCalls).toBe(2);
      expect(run.events.filter((event) => event.type === 'tool_call_refused')).toEqual([
        { type: 'tool_call_refused', modelCallId: expect.any(String), callId: 'c1', toolName: 'send', reason },
        { type: 'tool_call_refused', modelCallId: expect.any(String), callId: 'c2', toolName: 'send', reason },
      ]);
      const answers = run.messages.filter((message) => message.role === 'tool');
      expect(answers).toHaveLength(2);
      for (const answer of answers) {
        expect(answer.role === 'tool' && answer.isError).toBe(true);
        expect(JSON.stringify(answer.content)).toContain(`finish reason \`${reason}\``);
      }
      expect(run.text).toBe('ok');
    },
  );

  it("runs them with brokenTurnCalls: 'execute', and never touches a clean turn", async () => {
    const executed = setup('length');
    const run = await new AgentHarness({ model: executed.model, tools: [executed.send] }).invoke(
      {},
      [{ role: 'user', content: 'go' }],
      { policy: { brokenTurnCalls: 'execute' } },
    );
    expect(executed.ran).toEqual(['a', 'b']);
    expect(run.events.some((event) => event.type === 'tool_call_refused')).toBe(false);
    const clean = setup('tool_calls');
    await new AgentHarness({ model: clean.model, tools: [clean.send] }).invoke({}, [{ role: 'user', content: 'go' }]);
    expect(clean.ran).toEqual(['a', 'b']);
  });

  it('counts refused calls against the tool-call budget', async () => {
    const { ran, model, send } = setup('length');
    const harness = new AgentHarness({ model, tools: [send], limits: { maxToolCalls: 1 } });
    await expect(harness.invoke({}, [{ role: 'user', content: 'go' }])).rejects.toSatisfy(
      LimitExceededError.isInstance,
    );
    expect(ran).toEqual([]);
  });

  it('rejects an unknown brokenTurnCalls value', () => {
    const { model } = setup('length');
    expect(() => new AgentHarness({ model, policy: { brokenTurnCalls: 'maybe' as never } })).toThrow(/brokenTurnCalls/);
  });
});
