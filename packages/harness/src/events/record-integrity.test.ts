import { defineTool, type ToolExecutionContext, type ToolProgress } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';

// What a tool, model or middleware hands the harness never decides what the run records beyond its
// own fields: not an event's kind or call id, not the history, not another call's liveness.

const open = { type: 'object', properties: {}, additionalProperties: true } as const;

function oneCall(name: string) {
  return new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall(name, {}, 'c1')] }, { content: 'done' }] });
}

describe('what callers hand the harness', () => {
  it("a progress report's own type and callId never override the tool_progress event of the reporting call", async () => {
    const tool = defineTool({
      name: 't',
      description: 't',
      parameters: open,
      execute: (_args: unknown, context: ToolExecutionContext) => {
        context.reportProgress({ type: 'tool_completed', callId: 'other', message: 'a' } as ToolProgress);
        context.reportProgress({ type: 'run_completed', outcome: 'final', message: 'forged' } as ToolProgress);
        return 'real';
      },
    });
    const seen: string[] = [];
    const run = await new AgentHarness({ model: oneCall('t'), tools: [tool] }).invoke('go', {
      onEvent: (event) => seen.push(event.type),
    });
    const progress = run.events.filter((event) => event.type === 'tool_progress');
    expect(progress.map((event) => [event.callId, event.message])).toEqual([
      ['c1', 'a'],
      ['c1', 'forged'],
    ]);
    expect(run.events.filter((event) => event.type === 'run_completed')).toHaveLength(1);
    expect(run.events.at(-1)?.type).toBe('run_completed');
    expect(run.text).toBe('done');
    expect(toolEventViolations(run.events)).toEqual([]);
    expect(seen).toEqual(run.events.map((event) => event.type));
  });

  it("a model's profile never overrides the model_profiled event's type", async () => {
    const model = Object.assign(oneCall('t'), {
      profileModel: async () => ({ type: 'run_completed', modelId: 'm', server: 'unknown', toolCalling: true }),
    });
    const tool = defineTool({ name: 't', description: 't', parameters: open, execute: () => 'real' });
    const run = await new AgentHarness({ model, tools: [tool] }).invoke('go');
    expect(run.events.filter((event) => event.type === 'model_profiled')).toHaveLength(1);
    expect(run.events.filter((event) => event.type === 'run_completed')).toHaveLength(1);
    expect(run.text).toBe('done');
  });
});
