import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '../testkit/index.js';

const forgetful = defineTool({
  name: 'forgetful',
  description: 'Does something and forgets to return.',
  parameters: Type.Object({}),
  policy: ToolPolicy.readOnly(),
  execute: () => undefined,
});
const slowForgetful = defineTool({
  name: 'slow_forgetful',
  description: 'Async, and forgets to return.',
  parameters: Type.Object({}),
  policy: ToolPolicy.readOnly(),
  execute: async () => undefined,
});
const answers = defineTool({
  name: 'answers',
  description: 'Returns a text.',
  parameters: Type.Object({}),
  policy: ToolPolicy.readOnly(),
  execute: () => 'fine',
});

const script = () =>
  new ScriptedModel({
    steps: [
      {
        toolCalls: [
          scriptedToolCall('forgetful', {}, 'a'),
          scriptedToolCall('slow_forgetful', {}, 'b'),
          scriptedToolCall('answers', {}, 'c'),
        ],
      },
      { toolCalls: [scriptedToolCall('forgetful', {}, 'd'), scriptedToolCall('slow_forgetful', {}, 'e')] },
      { content: 'done' },
    ],
  });

function toolMessages(model: ScriptedModel) {
  const last = model.requests.at(-1);
  return (last?.messages ?? []).filter((message) => message.role === 'tool');
}

describe('a tool that returns undefined', () => {
  it('sends "" and warns once per tool per run (sync and async execute)', async () => {
    const model = script();
    const run = await new AgentHarness({ model, tools: [forgetful, slowForgetful, answers] }).invoke({}, 'go');
    expect(run.outcome).toBe('final');
    const warnings = eventsOfType(run.events, 'tool_returned_undefined');
    expect(warnings.map((event) => event.toolName).sort()).toEqual(['forgetful', 'slow_forgetful']);
    expect(warnings.every((event) => event.sent === '')).toBe(true);
    const contents = toolMessages(model).map((message) => (message as { content: unknown }).content);
    expect(contents.filter((content) => content === '')).toHaveLength(4);
    expect(contents).toContain('fine');
  });

  it('warns again in a new run, and through a wrapTool middleware', async () => {
    const passThrough: AgentMiddleware = { name: 'pass', wrapTool: (call, next) => next(call) };
    const harness = new AgentHarness({
      model: script(),
      tools: [forgetful, slowForgetful, answers],
      middleware: [passThrough],
    });
    const first = await harness.invoke({}, 'go');
    expect(eventsOfType(first.events, 'tool_returned_undefined')).toHaveLength(2);
    const second = await new AgentHarness({ model: script(), tools: [forgetful, slowForgetful, answers] }).invoke(
      {},
      'go',
    );
    expect(eventsOfType(second.events, 'tool_returned_undefined')).toHaveLength(2);
  });
});
