import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { parseRunState, type RunState } from '../deferral/run-state.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

function sendTool(sent: string[]) {
  return defineTool({
    name: 'send',
    description: 'Send a message.',
    parameters: Type.Object({ to: Type.String() }),
    policy: ToolPolicy.classified().withSideEffects({ network: true }),
    execute: ({ to }) => {
      sent.push(to);
      return 'sent';
    },
  });
}

describe('a broken turn refused before a crash stays refused on resume', () => {
  it.each(['length', 'content_filter', 'error'] as const)(
    'a `%s` turn checkpointed, then a crash in the next model call: resume answers, never runs',
    async (reason) => {
      const sent: string[] = [];
      const store = new InMemoryCheckpointStore();
      // The second model call has no step: the process "crashes" there, after the checkpoint.
      const model = new ScriptedModel({
        steps: [{ toolCalls: [scriptedToolCall('send', { to: 'a' }, 'c1')], finishReason: reason }],
      });
      const harness = new AgentHarness({ model, tools: [sendTool(sent)] });
      await expect(
        harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }], {
          onCheckpoint: (state) => store.save(state),
        }),
      ).rejects.toThrow(/no step scripted/);
      const saved = (await store.load('r')) as RunState;
      expect(saved.refusedTurn).toEqual({ reason, modelCallId: expect.any(String) });
      expect(parseRunState(JSON.stringify(saved)).refusedTurn?.reason).toBe(reason);
      const resumed = new AgentHarness({
        model: new ScriptedModel({ steps: [{ content: 'ok' }] }),
        tools: [sendTool(sent)],
        policy: { brokenTurnCalls: 'execute' },
      });
      const run = await resumed.resume({}, saved);
      expect(sent).toEqual([]);
      expect(run.events.filter((event) => event.type === 'tool_call_refused')).toHaveLength(1);
      expect(run.text).toBe('ok');
    },
  );

  it('a clean turn carries no refusal, and its calls run on resume', async () => {
    const sent: string[] = [];
    const store = new InMemoryCheckpointStore();
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('send', { to: 'a' }, 'c1')] }] });
    const harness = new AgentHarness({
      model,
      tools: [
        defineTool({
          ...sendTool([]),
          execute: () => {
            throw new Error('crash');
          },
        }),
      ],
    });
    await expect(
      harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }], { onCheckpoint: (state) => store.save(state) }),
    ).rejects.toThrow();
    const saved = (await store.load('r')) as RunState;
    expect(saved.refusedTurn).toBeUndefined();
    await new AgentHarness({
      model: new ScriptedModel({ steps: [{ content: 'ok' }] }),
      tools: [sendTool(sent)],
    }).resume({}, saved);
    expect(sent).toEqual(['a']);
  });

  it('refuses a malformed refusal in a state', () => {
    const state = { version: 1, runId: 'r', messages: [], budgets: { modelCalls: 0, toolCalls: 0 }, usage: {} };
    expect(() => parseRunState({ ...state, refusedTurn: { reason: 'stop', modelCallId: 'm' } })).toThrow(/refusedTurn/);
  });
});
