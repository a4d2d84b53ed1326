import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { RunCancelledError } from '../errors/run-cancelled-error.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { unwatchRunAbort, watchRunAbort } from './run-abort-watch.js';

describe('watchRunAbort', () => {
  const record = (waiter: { name: string; calls: string[] }) => waiter.calls.push(waiter.name);

  it('calls each waiter still watching once, on abort, and none that stopped watching', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const waiters = ['a', 'b', 'c'].map((name) => ({ name, calls }));
    for (const waiter of waiters) watchRunAbort(controller.signal, waiter, record);
    unwatchRunAbort(controller.signal, waiters[1] as object);
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'c']);
  });

  it('keeps signals apart, and a waiter that removes another during the abort stops it', () => {
    const first = new AbortController();
    const second = new AbortController();
    const calls: string[] = [];
    const late = { name: 'late', calls };
    watchRunAbort(first.signal, { name: 'first', calls }, (waiter) => {
      record(waiter);
      unwatchRunAbort(first.signal, late);
    });
    watchRunAbort(first.signal, late, record);
    watchRunAbort(second.signal, { name: 'second', calls }, record);
    first.abort();
    expect(calls).toEqual(['first']);
    second.abort();
    expect(calls).toEqual(['first', 'second']);
  });
});

describe('a run cancelled while several async tools wait', () => {
  it('aborts every waiting call and rejects the run with RunCancelledError', async () => {
    const controller = new AbortController();
    const aborted: string[] = [];
    let started = 0;
    const hang = defineTool({
      name: 'hang',
      description: 'Waits until its signal aborts.',
      parameters: Type.Object({ n: Type.Integer() }),
      isConcurrencySafe: () => true,
      execute: ({ n }, context) =>
        new Promise<string>((resolve) => {
          context.signal.addEventListener('abort', () => {
            aborted.push(`call ${n}`);
            resolve('stopped');
          });
          started += 1;
          if (started === 3) queueMicrotask(() => controller.abort(new Error('host stop')));
        }),
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [0, 1, 2].map((n) => scriptedToolCall('hang', { n }, `c${n}`)) }, { content: 'done' }],
    });
    const harness = new AgentHarness({ model, tools: [hang], policy: { maxConcurrency: 3 } });
    await expect(harness.invoke({ signal: controller.signal }, [{ role: 'user', content: 'go' }])).rejects.toThrow(
      RunCancelledError,
    );
    expect(aborted.sort()).toEqual(['call 0', 'call 1', 'call 2']);
  });
});

describe('a run cancelled from inside a starting call while earlier calls of its batch wait', () => {
  it('ends every started call once, starts no call past the limit, and rejects the run', async () => {
    const controller = new AbortController();
    const ran: number[] = [];
    let running = 0;
    let most = 0;
    const step = defineTool({
      name: 'step',
      description: 'Waits for its signal; the third call stops the run before it returns its promise.',
      parameters: Type.Object({ n: Type.Integer() }),
      isConcurrencySafe: () => true,
      execute: ({ n }, context) => {
        ran.push(n);
        running += 1;
        most = Math.max(most, running);
        // Synchronously, inside `execute`: the waits of calls 0 and 1 end while the batch is still starting calls.
        if (n === 2) controller.abort(new Error('host stop'));
        return new Promise<string>((resolve) => {
          const end = () => {
            running -= 1;
            resolve(`ended ${n}`);
          };
          if (context.signal.aborted) end();
          else context.signal.addEventListener('abort', end, { once: true });
        });
      },
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [0, 1, 2, 3, 4, 5].map((n) => scriptedToolCall('step', { n }, `c${n}`)) },
        { content: 'done' },
      ],
    });
    const harness = new AgentHarness({ model, tools: [step], policy: { maxConcurrency: 3 } });
    const ended: string[] = [];
    const onEvent = (event: { type: string; callId?: string }) => {
      if (event.type === 'tool_completed' || event.type === 'tool_failed') ended.push(event.callId ?? '');
    };
    await expect(
      harness.invoke({ signal: controller.signal }, [{ role: 'user', content: 'go' }], { onEvent }),
    ).rejects.toThrow(RunCancelledError);
    // Calls after the abort never run their tool; none ran beyond the concurrency limit.
    expect(ran).toEqual([0, 1, 2]);
    expect(most).toBeLessThanOrEqual(3);
    // Each call's outcome is reported at most once.
    expect(new Set(ended).size).toBe(ended.length);
  });
});
