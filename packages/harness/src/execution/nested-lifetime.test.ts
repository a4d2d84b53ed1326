import { defineTool, type ToolExecutionContext, ToolPolicy, ToolTimeoutError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import { RunCancelledError } from '../errors/run-cancelled-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// The repros of a tester's breaks of "a nested call never outlives its parent or its run"
// (/tmp/breakers/loop-abort a1 with-mw, a11, a2, a6, a12): each asserts that the nested tool never
// ran, how its `callTool` promise ended, and that no event follows the run's final event.

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const object = { type: 'object', properties: {}, additionalProperties: true } as const;

/** A nested tool that records each run and the state of its signal when it starts. */
function childTool(parameters: unknown = object) {
  const ran: boolean[] = [];
  const child = defineTool({
    name: 'child',
    description: 'The nested tool.',
    parameters: parameters as typeof object,
    execute: async (_args: unknown, context: ToolExecutionContext) => {
      ran.push(context.signal.aborted);
      return 'child ran';
    },
  });
  return { child, ran };
}

/** A `beforeTool` hook that holds the nested call's admission until `release` resolves. */
function holdChild(release: Promise<unknown>): AgentMiddleware {
  return {
    name: 'hold_child',
    beforeTool: async (call) => {
      if (call.name === 'child') await release;
      return undefined;
    },
  };
}

const types = (events: readonly AgentEvent[]) =>
  events.map((event) => `${event.type}${'callId' in event && event.callId ? `:${event.callId}` : ''}`);

/** Settles a promise into what a test can compare (the error, or the value). */
const settled = (pending: Promise<unknown>) =>
  pending.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('a nested call never outlives its calling call or its run', () => {
  it('a detached nested call admitted (beforeTool) after its parent and the run ended never runs (a1)', async () => {
    const { child, ran } = childTool();
    const runEnded = deferred();
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
    const harness = new AgentHarness({ model, tools: [parent, child], middleware: [holdChild(runEnded.promise)] });
    const run = await harness.invoke('go');
    runEnded.resolve();
    const outcome = (await nested) as { error?: unknown };
    expect(NestedCallRefusedError.isInstance(outcome.error)).toBe(true);
    expect(outcome.error).toMatchObject({ refusal: 'parent_ended', parentCallId: 'p1', toolName: 'child' });
    expect(ran).toEqual([]);
    expect(types(run.events).filter((type) => type.startsWith('tool_'))).toEqual([
      'tool_started:p1',
      'tool_completed:p1',
    ]);
    expect(run.events.at(-1)?.type).toBe('run_completed');
  });

  it('a nested call still running when its parent returns is aborted and ends with one outcome, before the run’s', async () => {
    const never = deferred();
    let childSignal: AbortSignal | undefined;
    const child = defineTool({
      name: 'child',
      description: 'Ignores its signal and never answers.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        childSignal = context.signal;
        await never.promise;
        return 'too late';
      },
    });
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
    const run = await new AgentHarness({ model, tools: [parent, child] }).invoke('go');
    const outcome = (await nested) as { error?: unknown };
    expect(outcome.error).toMatchObject({ name: 'NestedCallRefusedError', refusal: 'parent_ended', started: true });
    expect(childSignal?.aborted).toBe(true);
    const tools = types(run.events).filter((type) => type.startsWith('tool_'));
    expect(tools).toContain('tool_started:p1/1');
    expect(tools.filter((type) => type === 'tool_failed:p1/1' || type === 'tool_completed:p1/1')).toEqual([
      'tool_failed:p1/1',
    ]);
    expect(run.events.at(-1)?.type).toBe('run_completed');
  });

  it('a host abort ends a running nested tree with the run stop, one outcome per call (a3)', async () => {
    const host = new AbortController();
    const started = deferred();
    const errors: string[] = [];
    const leaf = defineTool({
      name: 'leaf',
      description: 'Ignores its signal and never answers.',
      parameters: object,
      execute: async () => {
        started.resolve();
        await new Promise(() => undefined);
        return 'never';
      },
    });
    const middle = defineTool({
      name: 'middle',
      description: 'Awaits leaf.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        try {
          return (await context.callTool!('leaf', {})).output();
        } catch (error) {
          errors.push((error as Error).name);
          throw error;
        }
      },
    });
    const top = defineTool({
      name: 'top',
      description: 'Awaits middle.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        try {
          return (await context.callTool!('middle', {})).output();
        } catch (error) {
          errors.push((error as Error).name);
          throw error;
        }
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('top', {}, 't1')] }, { content: 'ok' }],
    });
    const events: AgentEvent[] = [];
    const running = settled(
      new AgentHarness({ model, tools: [top, middle, leaf] }).invoke({ signal: host.signal }, 'go', {
        onEvent: (event) => events.push(event),
      }),
    );
    await started.promise;
    host.abort(new Error('host stop'));
    const failure = (await running) as { error?: unknown };
    expect(RunCancelledError.isInstance(failure.error)).toBe(true);
    // Both callers saw the run stop, not a parent-ended refusal.
    expect(errors).toEqual(['RunCancelledError', 'RunCancelledError']);
    const ends = events.filter((event) => event.type === 'tool_failed' || event.type === 'tool_completed');
    expect(ends.map((event) => [event.callId, event.type === 'tool_failed' ? event.error : ''])).toEqual([
      ['t1/1/1', 'run cancelled'],
      ['t1/1', 'run cancelled'],
      ['t1', 'run cancelled'],
    ]);
    expect(events.at(-1)?.type).toBe('run_failed');
  });

  it('a detached nested call whose schema validates asynchronously never runs once its parent ended (a11)', async () => {
    const validated = deferred();
    const release = deferred();
    // A Standard Schema whose `validate` answers only once the test releases it (after the run ended).
    const asyncSchema = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value: unknown) => {
          validated.resolve();
          await release.promise;
          return { value };
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    };
    const { child, ran } = childTool(asyncSchema);
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
    const run = await new AgentHarness({ model, tools: [parent, child] }).invoke('go');
    await validated.promise;
    release.resolve();
    const outcome = (await nested) as { error?: unknown };
    expect(outcome.error).toMatchObject({ name: 'NestedCallRefusedError', refusal: 'parent_ended' });
    expect(ran).toEqual([]);
    expect(run.events.some((event) => event.type === 'tool_started' && event.callId === 'p1/1')).toBe(false);
    expect(run.events.at(-1)?.type).toBe('run_completed');
  });

  it('refuses `callTool` made after the parent returned, whenever `callTool` was first read (a2)', async () => {
    for (const readEarly of [false, true]) {
      const { child, ran } = childTool();
      let context: ToolExecutionContext | undefined;
      let late: { error?: unknown } | undefined;
      const parent = defineTool({
        name: 'parent',
        description: 'Keeps its context and returns.',
        parameters: object,
        execute: (_args: unknown, ctx: ToolExecutionContext) => {
          if (readEarly) void ctx.callTool;
          context = ctx;
          return 'parent done';
        },
      });
      const model = new ScriptedModel({
        steps: [
          { toolCalls: [scriptedToolCall('parent', {}, 'p1')] },
          // While the run still runs (the model is answering), the parent's call has ended.
          async () => {
            late = (await settled(context!.callTool!('child', {}))) as { error?: unknown };
            return { content: 'ok' };
          },
        ],
      });
      const run = await new AgentHarness({ model, tools: [parent, child] }).invoke('go');
      expect(late?.error).toMatchObject({ name: 'NestedCallRefusedError', refusal: 'parent_ended' });
      // After the run returned too.
      const after = (await settled(context!.callTool!('child', {}))) as { error?: unknown };
      expect(NestedCallRefusedError.isInstance(after.error)).toBe(true);
      expect(ran).toEqual([]);
      expect(run.events.filter((event) => event.type === 'tool_started').map((event) => event.callId)).toEqual(['p1']);
      expect(run.events.at(-1)?.type).toBe('run_completed');
    }
  });

  it('a fire-and-forget `callTool` refused after its parent ended is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { child, ran } = childTool();
      const parent = defineTool({
        name: 'parent',
        description: 'Starts a nested call it never awaits, later, and returns.',
        parameters: object,
        execute: (_args: unknown, ctx: ToolExecutionContext) => {
          setTimeout(() => void ctx.callTool?.('child', {}), 5);
          return 'parent done';
        },
      });
      const model = new ScriptedModel({
        steps: [
          { toolCalls: [scriptedToolCall('parent', {}, 'p1')] },
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 30));
            return { content: 'ok' };
          },
        ],
      });
      await new AgentHarness({ model, tools: [parent, child] }).invoke('go');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(ran).toEqual([]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a parent timing out during its nested call’s admission: the nested tool never runs (a6)', async () => {
    const { child, ran } = childTool();
    const parentAborted = deferred();
    let nested: { error?: unknown } | undefined;
    const nestedSettled = deferred();
    const parent = defineTool({
      name: 'parent',
      description: 'Awaits child under a short timeout.',
      parameters: object,
      policy: ToolPolicy.classified().withRuntime({ timeoutMs: 20 }),
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        context.signal.addEventListener('abort', () => parentAborted.resolve());
        nested = (await settled(context.callTool!('child', {}))) as { error?: unknown };
        nestedSettled.resolve();
        return 'parent done';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'ok' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [parent, child],
      // The hook holds the admission until the parent's timeout aborted it.
      middleware: [holdChild(parentAborted.promise)],
      policy: { toolErrors: { kind: 'return_error' } },
    });
    const run = await harness.invoke('go');
    await nestedSettled.promise;
    expect(nested?.error).toMatchObject({ name: 'NestedCallRefusedError', refusal: 'parent_ended' });
    expect(ToolTimeoutError.isInstance((nested?.error as Error | undefined)?.cause)).toBe(true);
    expect(ran).toEqual([]);
    expect(run.events.some((event) => event.type === 'tool_started' && event.callId === 'p1/1')).toBe(false);
    expect(run.events.at(-1)?.type).toBe('run_completed');
  });

  it('the run’s wall clock ending during a nested admission: no nested event after `run_failed` (a12)', async () => {
    const { child, ran } = childTool();
    const runEnded = deferred();
    let nested: Promise<unknown> | undefined;
    const parent = defineTool({
      name: 'parent',
      description: 'Awaits child.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        nested = settled(context.callTool!('child', {}));
        await nested;
        return 'parent done';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'ok' }],
    });
    const seen: string[] = [];
    const harness = new AgentHarness({
      model,
      tools: [parent, child],
      middleware: [holdChild(runEnded.promise)],
      limits: { wallClockMs: 30 },
    });
    const failure = await settled(harness.invoke('go', { onEvent: (event) => seen.push(types([event])[0]!) }));
    expect(LimitExceededError.isInstance((failure as { error?: unknown }).error)).toBe(true);
    const atEnd = seen.length;
    runEnded.resolve();
    const outcome = (await nested) as { error?: unknown };
    expect(outcome.error).toBeDefined();
    expect(ran).toEqual([]);
    expect(seen.length).toBe(atEnd);
    expect(seen.at(-1)).toBe('run_failed');
    expect(seen).not.toContain('tool_started:p1/1');
  });
});
