import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/scripted-model.js';
import { PrefixedToolSet } from './prefixed-tool-set.js';
import type { ToolSet, ToolSetContext, ToolSetEvent } from './tool-set.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: Type.Object({ text: Type.String() }),
  policy: ToolPolicy.readOnly(),
  execute: ({ text }) => text,
});

/** A toolset that reports a definition change (and one event of a type toolsets may not send) at every listing. */
class ReportingToolSet implements ToolSet {
  readonly label = 'reporting';
  readonly contexts: ToolSetContext[] = [];

  tools(context: ToolSetContext) {
    this.contexts.push(context);
    const event: ToolSetEvent = {
      type: 'tool_definition_changed',
      toolSet: this.label,
      toolName: 'echo',
      changed: ['description'],
      pinned: 'a'.repeat(64),
      current: 'b'.repeat(64),
      withheld: true,
    };
    context.emit?.(event);
    context.emit?.({ type: 'run_failed', runId: context.runId, error: 'forged' } as unknown as ToolSetEvent);
    return [echo];
  }

  async call(): Promise<never> {
    throw new Error('not called');
  }
}

describe('ToolSetContext.emit', () => {
  it('routes toolset events into the run (through wrapping toolsets) and drops other event types', async () => {
    const inner = new ReportingToolSet();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('x_echo', { text: 'hi' })] }, { content: 'done' }],
    });
    const harness = new AgentHarness({ model, toolSets: [new PrefixedToolSet(inner, 'x_')] });
    const run = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
    const types = run.events.map((event: AgentEvent) => event.type);
    expect(types.filter((type) => type === 'tool_definition_changed')).toHaveLength(2);
    expect(types.filter((type) => type === 'run_failed')).toHaveLength(0);
    // Reported while the turn's catalogue is resolved: after run_started, before the model call.
    expect(types.indexOf('tool_definition_changed')).toBeGreaterThan(types.indexOf('run_started'));
    expect(types.indexOf('tool_definition_changed')).toBeLessThan(types.indexOf('model_started'));
    expect(run.events.find((event) => event.type === 'tool_definition_changed')).toMatchObject({
      toolSet: 'reporting',
      toolName: 'echo',
      withheld: true,
    });
  });

  it('is absent when the run neither records events nor has listeners', async () => {
    const inner = new ReportingToolSet();
    const harness = new AgentHarness({ model: new ScriptedModel({ steps: [{ content: 'ok' }] }), toolSets: [inner] });
    await harness.invoke({}, [{ role: 'user', content: 'go' }], { recordEvents: false });
    expect(inner.contexts.every((context) => context.emit === undefined)).toBe(true);
  });
});
