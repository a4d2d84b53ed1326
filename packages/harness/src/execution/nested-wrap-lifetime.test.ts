import { defineTool, type ToolExecutionContext } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import { RunCancelledError } from '../errors/run-cancelled-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// The repros of a second tester's breaks of "a nested call never outlives its calling call or the
// run" through `wrapTool` (/tmp/breakers/nested-r2 b1, b4, b5 retry, b8, b11): a wrap layer that
// awaits or retries before `next()` must not run the nested tool once its caller or the run ended,
// and the nested call's one outcome is reported when its caller ends, before the run's final event.

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const object = { type: 'object', properties: {}, additionalProperties: true } as const;

const settled = (pending: Promise<unknown>) =>
  pending.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

const types = (events: readonly AgentEvent[]) =>
  events.map((event) => `${event.type}${'callId' in event && event.callId ? `:${event.callId}` : ''}`);

/** Outcome events per call id that had a `tool_started`. */
function outcomesPerStart(events: readonly AgentEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of events) {
    if (event.type === 'tool_started') counts[event.callId] ??= 0;
    if (event.type === 'tool_completed' || event.type === 'tool_failed')
      counts[event.callId] = (counts[event.callId] ?? 0) + 1;
  }
  return counts;
}

function childTool(onRun?: () => Promise<unknown>) {
  const ran: boolean[] = [];
  const child = defineTool({
    name: 'child',
    description: 'The nested tool.',
    parameters: object,
    execute: async (_args: unknown, context: ToolExecutionContext) => {
      ran.push(context.signal.aborted);
      if (onRun) await onRun();
      return 'child ran';
    },
  });
  return { child, ran };
}

/** A `wrapTool` layer that holds the child's call until `release` resolves, then calls `next`. */
function holdChild(release: Promise<unknown>): AgentMiddleware {
  return {
    name: 'hold_child',
    wrapTool: async (call, next) => {
      if (call.name === 'child') await release;
      return next(call);
    },
  };
}

describe('a nested call held by a wrapTool layer never outlives its caller', () => {
  it('a detached nested call held by a wrap layer until after the run never runs, and fails before run_completed (b1, b8)', async () => {
    const release = deferred();
    const { child, ran } = childTool();
    let nested: Promise<unknown> | undefined;
    const parent = defineTool({
      name: 'parent',
      description: 'Starts child and returns.',
      parameters: object,
      execute: (_args: unknown, context: ToolExecutionContext) => {
        nested = settled(context.callTool!('child', {}));
        return 'parent done';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({
      model,
      tools: [parent, child],
      middleware: [holdChild(release.promise)],
    }).invoke('go');
    const outcome = (await nested) as { error?: unknown };
    expect(NestedCallRefusedError.isInstance(outcome.error)).toBe(true);
    expect(outcome.error).toMatchObject({ refusal: 'parent_ended', parentCallId: 'p1' });
    const events = run.events.length;
    release.resolve();
    await new Promise((done) => setImmediate(done));
    expect(ran).toEqual([]);
    expect(run.events.length).toBe(events);
    expect(outcomesPerStart(run.events)).toEqual({ p1: 1, 'p1/1': 1 });
    const tools = types(run.events);
    expect(tools.indexOf('tool_failed:p1/1')).toBeLessThan(tools.indexOf('run_completed'));
  });

  it('a host cancel while a wrap layer holds an awaited nested call ends it with the run stop, and the child never runs (b4, b11)', async () => {
    const release = deferred();
    const { child, ran } = childTool();
    const parent = defineTool({
      name: 'parent',
      description: 'Awaits child, aborted by the host signal it watches.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => (await context.callTool!('child', {})).output(),
    });
    const host = new AbortController();
    const seen: string[] = [];
    const harness = new AgentHarness({
      model: new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'ok' }] }),
      tools: [parent, child],
      middleware: [
        {
          name: 'cancel_on_child',
          wrapTool: async (call, next) => {
            if (call.name === 'child') queueMicrotask(() => host.abort(new Error('host cancel')));
            return next(call);
          },
        },
        holdChild(release.promise),
      ],
    });
    const failure = await settled(
      harness.invoke({ signal: host.signal }, 'go', { onEvent: (event) => seen.push(types([event])[0]!) }),
    );
    expect(RunCancelledError.isInstance((failure as { error?: unknown }).error)).toBe(true);
    release.resolve();
    await new Promise((done) => setImmediate(done));
    expect(ran).toEqual([]);
    expect(seen.filter((type) => type.endsWith(':p1/1'))).toEqual(['tool_started:p1/1', 'tool_failed:p1/1']);
    expect(seen.at(-1)).toBe('run_failed');
  });

  it('a retrying wrap layer never runs a nested tool again once its caller ended (b5 retry)', async () => {
    const childStarted = deferred();
    const never = deferred();
    const { child, ran } = childTool(() => {
      childStarted.resolve();
      return never.promise;
    });
    const caught: unknown[] = [];
    const retry: AgentMiddleware = {
      name: 'retry',
      wrapTool: async (call, next) => {
        for (let attempt = 0; ; attempt += 1) {
          try {
            return await next(call);
          } catch (error) {
            caught.push(error);
            if (attempt >= 2) throw error;
          }
        }
      },
    };
    let nested: Promise<unknown> | undefined;
    const parent = defineTool({
      name: 'parent',
      description: 'Starts child, returns once it runs.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        nested = settled(context.callTool!('child', {}));
        await childStarted.promise;
        return 'parent done';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [parent, child], middleware: [retry] }).invoke('go');
    await nested;
    await new Promise((done) => setImmediate(done));
    expect(ran).toEqual([false]);
    expect(caught.length).toBe(3);
    expect(caught.every((error) => NestedCallRefusedError.isInstance(error))).toBe(true);
    expect(outcomesPerStart(run.events)).toEqual({ p1: 1, 'p1/1': 1 });
  });
});
