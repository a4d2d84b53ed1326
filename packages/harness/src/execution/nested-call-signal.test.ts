import { defineTool, type ToolExecutionContext } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// A tester's break (/tmp/breakers/nested-r2 b6-signal-crosstalk): the signal passed to one
// `callTool(name, args, { signal })` aborted its unrelated siblings too, and refused later calls
// with a false reason ("the calling tool's call ended"). It now concerns only the call it was given to.

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const object = { type: 'object', properties: {}, additionalProperties: true } as const;

const outcome = (pending: Promise<{ output(): string }>) =>
  pending.then(
    (result) => ({ output: result.output() }),
    (error: { name?: string; refusal?: string }) => ({ error: error.name, refusal: error.refusal }),
  );

describe('the signal passed to callTool aborts only that call', () => {
  it('aborting one call’s signal leaves its sibling and later calls running, and says why', async () => {
    const stop = new AbortController();
    const release = deferred();
    const slowStarted = deferred();
    const aborted: boolean[] = [];
    const slow = defineTool({
      name: 'slow',
      description: 'Waits for its signal.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        slowStarted.resolve();
        await new Promise((done) => context.signal.addEventListener('abort', done));
        return 'slow';
      },
    });
    const work = defineTool({
      name: 'work',
      description: 'Waits for the test to release it.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        await release.promise;
        aborted.push(context.signal.aborted);
        return 'work ok';
      },
    });
    const seen: Record<string, unknown> = {};
    const parent = defineTool({
      name: 'parent',
      description: 'Runs slow under its own signal next to work.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        const call = context.callTool as (
          name: string,
          args: unknown,
          options?: { signal?: AbortSignal },
        ) => Promise<{
          output(): string;
        }>;
        const first = outcome(call('slow', {}, { signal: stop.signal }));
        const sibling = outcome(call('work', {}));
        await slowStarted.promise;
        stop.abort(new Error('caller gave up on slow'));
        seen.slow = await first;
        release.resolve();
        seen.sibling = await sibling;
        seen.later = await outcome(call('work', {}));
        seen.refused = await outcome(call('work', {}, { signal: stop.signal }));
        return 'parent done';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [parent, slow, work] }).invoke('go');
    expect(run.outcome).toBe('final');
    expect(seen).toEqual({
      slow: { error: 'NestedCallRefusedError', refusal: 'signal_aborted' },
      sibling: { output: 'work ok' },
      later: { output: 'work ok' },
      refused: { error: 'NestedCallRefusedError', refusal: 'signal_aborted' },
    });
    expect(aborted).toEqual([false, false]);
  });
});
