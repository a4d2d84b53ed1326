import { defineTool, type ToolExecutionContext } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { MAX_TOOL_DEPTH } from './nested-call.js';

// A tester's break (/tmp/breakers/nested-r2 b7-deep-tree): a recursive tool nesting 700 deep with
// no tool-call budget overflowed the stack (each level is admitted on the stack of the one above)
// and the process died on an uncaught RangeError. Nested calls now stop at a depth limit.

describe('nested calls are bounded in depth', () => {
  it('a recursive tool 1000 deep is refused at the depth limit with a typed error and a limit_reached event', async () => {
    const errors: unknown[] = [];
    const rec = defineTool({
      name: 'rec',
      description: 'Calls itself n times.',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      execute: async ({ n }: { n: number }, context: ToolExecutionContext) => {
        if (n === 0) return 'leaf';
        try {
          return (await context.callTool!('rec', { n: n - 1 })).output();
        } catch (error) {
          errors.push(error);
          return `stopped at ${n}`;
        }
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('rec', { n: 1000 }, 'r1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({
      model,
      tools: [rec],
      limits: { maxToolCalls: Number.POSITIVE_INFINITY },
    }).invoke('go');
    expect(run.outcome).toBe('final');
    expect(errors).toHaveLength(1);
    expect(LimitExceededError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ limitKind: 'tool_depth', limit: MAX_TOOL_DEPTH });
    const started = run.events.filter((event) => event.type === 'tool_started');
    // The model's call and MAX_TOOL_DEPTH levels under it ran; the next level never started.
    expect(started).toHaveLength(MAX_TOOL_DEPTH + 1);
    expect(run.events).toContainEqual({ type: 'limit_reached', limitKind: 'tool_depth', limit: MAX_TOOL_DEPTH });
    expect(run.events.filter((event) => event.type === 'tool_completed')).toHaveLength(MAX_TOOL_DEPTH + 1);
  });
});
