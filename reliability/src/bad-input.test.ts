import { AgentHarness, DeferredToolResults, parseRunState, ToolRegistry } from '@tiny/harness';
import { ScriptedModel } from '@tiny/harness/testkit';
import { parseToolCalls } from '@tiny/llm';
import { createValidator, defineTool, executeTool, TinyError, ToolPolicy, ToolResult } from '@tiny/tools';
import { describe, expect, it } from 'vitest';

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
const huge = 'x'.repeat(2_000_000);

async function typedError(run: () => unknown): Promise<TinyError> {
  try {
    await run();
  } catch (error) {
    expect(TinyError.isInstance(error), `untyped: ${String(error)}`).toBe(true);
    expect((error as Error).message.length).toBeGreaterThan(5);
    return error as TinyError;
  }
  throw new Error('expected a typed error');
}

describe('bad input at public entry points gets a typed error and changes nothing', () => {
  it.each([
    ['defineTool(null)', () => defineTool(null as never)],
    [
      'defineTool with a numeric name',
      () => defineTool({ name: 5, description: '', parameters: { type: 'object' }, execute: () => '' } as never),
    ],
    [
      'defineTool with a huge name',
      () => defineTool({ name: huge, description: '', parameters: { type: 'object' }, execute: () => '' }),
    ],
    [
      'defineTool with a string schema',
      () => defineTool({ name: 'x', description: '', parameters: 'object' as never, execute: () => '' }),
    ],
    [
      'defineTool with injected not an array',
      () =>
        defineTool({
          name: 'x',
          description: '',
          parameters: { type: 'object' },
          injected: 'a' as never,
          execute: () => '',
        }),
    ],
    ['createValidator(42)', () => createValidator(42 as never)],
    ['createValidator with a cyclic $ref', () => createValidator({ $ref: '#/nowhere' })],
    ['ToolPolicy.fromJSON(cyclic)', () => ToolPolicy.fromJSON(cyclic)],
    ['ToolResult.fromJSON(string)', () => ToolResult.fromJSON('nope')],
    ['DeferredToolResults.fromJSON(bad kind)', () => DeferredToolResults.fromJSON({ c1: { kind: 'maybe' } })],
    ['parseRunState(garbage)', () => parseRunState('{{{')],
    ['parseRunState(cyclic)', () => parseRunState(cyclic)],
    ['ToolRegistry.register(null)', () => new ToolRegistry().register(null as never)],
    ['new AgentHarness without a model', () => new AgentHarness({} as never)],
  ])('%s', async (_name, run) => {
    await typedError(run);
  });

  it('rejects a message list that is not one, without calling the model', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'x' }] });
    const harness = new AgentHarness({ model });
    // A string is a prompt (one user message), so it is not among the bad inputs.
    for (const messages of [
      42,
      { role: 'user', content: 'x' },
      [{ role: 'wizard', content: 'x' }],
      [null],
      [{ role: 'user' }],
      cyclic,
    ]) {
      await typedError(() => harness.invoke({}, messages as never));
    }
    expect(model.calls).toBe(0);
  });

  it('handles cyclic and huge arguments without hanging', async () => {
    const tool = defineTool({
      name: 'echo',
      description: '',
      parameters: { type: 'object', properties: { a: { type: 'integer' } } },
      execute: () => 'ok',
    });
    expect((await executeTool(tool, cyclic)).output()).toBe('ok');
    await typedError(() => executeTool(tool, { a: huge }));
    expect(parseToolCalls(`<tool_call>${huge}`).calls).toEqual([]);
  });

  it('refuses a resume with a tampered state and leaves it untouched', async () => {
    const harness = new AgentHarness({ model: new ScriptedModel({ steps: [] }) });
    const state = {
      version: 1,
      runId: 'r',
      messages: [{ role: 'user', content: 'x' }],
      budgets: { modelCalls: 0, toolCalls: 0 },
      usage: {},
      pending: {
        calls: [{ callId: 'ghost', toolName: 't', reason: 'external' }],
        approvals: [],
        metadata: {},
        followUps: [],
      },
    };
    const before = JSON.stringify(state);
    await typedError(() => harness.resumeDeferred({}, state as never, new DeferredToolResults().respond('ghost', 'x')));
    expect(JSON.stringify(state)).toBe(before);
  });
});
