import { defineTool, InvalidInputError, type ToolExecutionContext } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness, type AgentHarnessOptions } from '../agent/agent-harness.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import type { RunLimits } from '../run/run-limits.js';
import { MAX_TOOL_DEPTH } from '../run/run-limits.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// A tester's break (/tmp/breakers/nested-r2 b7-deep-tree): a recursive tool nesting 700 deep with
// no tool-call budget overflowed the stack (each level is admitted on the stack of the one above)
// and the process died on an uncaught RangeError. Nested calls now stop at a depth limit:
// `limits.maxToolDepth`, 64 by default, at most MAX_TOOL_DEPTH.

/** Runs a tool that calls itself `n` times; returns the run and what its `callTool`s threw. */
async function recurse(n: number, options: Partial<AgentHarnessOptions> = {}, limits: Partial<RunLimits> = {}) {
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
    steps: [{ toolCalls: [scriptedToolCall('rec', { n }, 'r1')] }, { content: 'ok' }],
  });
  const harness = new AgentHarness({ model, tools: [rec], ...options });
  const run = await harness.invoke({}, [{ role: 'user', content: 'go' }], {
    limits: { maxToolCalls: Number.POSITIVE_INFINITY, ...limits },
  });
  return { run, errors, started: run.events.filter((event) => event.type === 'tool_started').length };
}

describe('nested calls are bounded in depth', () => {
  it('a recursive tool 1000 deep is refused at the default limit (64) with a typed error and a limit_reached event', async () => {
    const { run, errors, started } = await recurse(1000);
    expect(run.outcome).toBe('final');
    expect(errors).toHaveLength(1);
    expect(LimitExceededError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ limitKind: 'tool_depth', limit: 64 });
    // The model's call and 64 levels under it ran; the next level never started.
    expect(started).toBe(65);
    expect(run.events).toContainEqual({ type: 'limit_reached', limitKind: 'tool_depth', limit: 64 });
    expect(run.events.filter((event) => event.type === 'tool_completed')).toHaveLength(65);
  });

  it('limits.maxToolDepth sets the limit, on the harness or per run (0: tools call no tools)', async () => {
    const onHarness = await recurse(10, { limits: { maxToolDepth: 3 } });
    expect(onHarness.started).toBe(4);
    expect(onHarness.errors[0]).toMatchObject({ limitKind: 'tool_depth', limit: 3 });
    const perRun = await recurse(10, { limits: { maxToolDepth: 3 } }, { maxToolDepth: 0 });
    expect(perRun.started).toBe(1);
    expect(perRun.errors[0]).toMatchObject({ limitKind: 'tool_depth', limit: 0 });
    expect(perRun.run.events).toContainEqual({ type: 'limit_reached', limitKind: 'tool_depth', limit: 0 });
    // A chain within the limit is not refused.
    const within = await recurse(5, {}, { maxToolDepth: 5 });
    expect(within.errors).toEqual([]);
    expect(within.started).toBe(6);
  });

  it(`at the highest setting (${MAX_TOOL_DEPTH}) a chain with middleware and a ledger stays within the stack`, async () => {
    const { errors, started } = await recurse(
      MAX_TOOL_DEPTH + 10,
      {
        ledger: new InMemoryToolEffectLedger(),
        middleware: [{ name: 'pass', beforeTool: () => undefined, wrapTool: (call, next) => next(call) }],
      },
      { maxToolDepth: MAX_TOOL_DEPTH },
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ limitKind: 'tool_depth', limit: MAX_TOOL_DEPTH });
    expect(started).toBe(MAX_TOOL_DEPTH + 1);
  });

  it.each([-1, 1.5, MAX_TOOL_DEPTH + 1, Number.POSITIVE_INFINITY, Number.NaN, '8'])(
    'limits.maxToolDepth = %s is an InvalidInputError naming the option',
    async (value) => {
      const model = () => new ScriptedModel({ steps: [{ content: 'ok' }] });
      expect(() => new AgentHarness({ model: model(), limits: { maxToolDepth: value as number } })).toThrow(
        InvalidInputError,
      );
      expect(() => new AgentHarness({ model: model(), limits: { maxToolDepth: value as number } })).toThrow(
        `\`limits.maxToolDepth\` must be an integer from 0 to ${MAX_TOOL_DEPTH}`,
      );
      const scripted = model();
      await expect(
        new AgentHarness({ model: scripted }).invoke({}, 'go', { limits: { maxToolDepth: value as number } }),
      ).rejects.toThrow('`options.limits.maxToolDepth` must be an integer');
      expect(scripted.calls).toBe(0);
    },
  );
});
