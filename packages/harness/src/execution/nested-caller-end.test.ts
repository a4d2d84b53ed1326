import { defineTool, type ToolExecutionContext, ToolResult } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// The repros of a tester's breaks of "a nested call never runs (its tool, its middleware) once its
// caller or the run ended, every started call has exactly one outcome event, and nothing follows the
// run's final event" (/tmp/breakers/nested-history a1, a1b, a2, a3*, a5, c1, c2).

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const object = { type: 'object', properties: {}, additionalProperties: true } as const;

/** Lets timers, I/O and every queued microtask run. */
const turn = () => new Promise((done) => setImmediate(done));

const settled = (pending: Promise<unknown>) =>
  pending.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

const types = (events: readonly AgentEvent[]) =>
  events.map((event) => `${event.type}${'callId' in event && event.callId ? `:${event.callId}` : ''}`);

/** Call ids whose `tool_started` is not followed by exactly one outcome event before the run's final event. */
function unsettledStarts(events: readonly AgentEvent[]): string[] {
  const end = events.findIndex((event) => event.type === 'run_completed' || event.type === 'run_failed');
  const before = end < 0 ? events : events.slice(0, end);
  const counts = new Map<string, number>();
  for (const event of before) {
    if (event.type === 'tool_started') counts.set(event.callId, counts.get(event.callId) ?? 0);
    if (event.type === 'tool_completed' || event.type === 'tool_failed')
      counts.set(event.callId, (counts.get(event.callId) ?? 0) + 1);
  }
  return [...counts].filter(([, count]) => count !== 1).map(([callId]) => callId);
}

/** A nested tool that records each run. */
function childTool(onRun?: (context: ToolExecutionContext) => Promise<unknown>) {
  const ran: string[] = [];
  const child = defineTool({
    name: 'child',
    description: 'The nested tool.',
    parameters: object,
    execute: async (_args: unknown, context: ToolExecutionContext) => {
      ran.push(context.callId);
      if (onRun) await onRun(context);
      return 'child ran';
    },
  });
  return { child, ran };
}

/** A tool that starts `child` without awaiting it and returns at once. */
function detachingParent(result: () => unknown = () => 'parent done') {
  const nested: Promise<unknown>[] = [];
  const parent = defineTool({
    name: 'parent',
    description: 'Starts child and returns.',
    parameters: object,
    execute: (_args: unknown, context: ToolExecutionContext) => {
      nested.push(settled(context.callTool!('child', {})));
      return result() as string;
    },
  });
  return { parent, nested };
}

/** A model that calls `parent` once, then answers after `second` (the run goes on while it waits). */
function model(second: () => Promise<unknown> = async () => undefined) {
  return new ScriptedModel({
    steps: [
      { toolCalls: [scriptedToolCall('parent', {}, 'p1')] },
      async () => {
        await second();
        return { content: 'ok' };
      },
    ],
  });
}

describe('a run that ends with a nested call running reports its outcome first (A3)', () => {
  const endings: [string, () => unknown][] = [
    ['terminate', () => ToolResult.success('p').terminate()],
    ['returnDirect', () => ToolResult.success('p').returnDirect()],
    ['goto end', () => ToolResult.success('p').withGoto('end')],
  ];
  for (const [name, result] of endings) {
    it(`a result that ends the run (${name}) with a detached nested call still running`, async () => {
      const never = new Promise<never>(() => {});
      const { child } = childTool(() => never);
      const { parent, nested } = detachingParent(result);
      const seen: AgentEvent[] = [];
      const run = await new AgentHarness({ model: model(), tools: [parent, child] }).invoke('go', {
        onEvent: (event) => seen.push(event),
      });
      await nested[0];
      await turn();
      expect(types(run.events)).toContain('tool_started:p1/1');
      expect(unsettledStarts(run.events)).toEqual([]);
      expect(unsettledStarts(seen)).toEqual([]);
      expect(types(seen).at(-1)).toBe('run_completed');
      expect(seen.length).toBe(run.events.length);
    });
  }

  it('under a host signal, and three levels deep', async () => {
    const never = new Promise<never>(() => {});
    const level = (name: string, next?: string) =>
      defineTool({
        name,
        description: name,
        parameters: object,
        execute: async (_args: unknown, context: ToolExecutionContext) => {
          if (next !== undefined) context.callTool!(next, {}).catch(() => {});
          return never;
        },
      });
    const parent = defineTool({
      name: 'parent',
      description: 'Starts n1 and ends the run.',
      parameters: object,
      execute: (_args: unknown, context: ToolExecutionContext) => {
        context.callTool!('n1', {}).catch(() => {});
        return ToolResult.success('p').terminate();
      },
    });
    const run = await new AgentHarness({
      model: model(),
      tools: [parent, level('n1', 'n2'), level('n2', 'n3'), level('n3')],
    }).invoke({ signal: new AbortController().signal }, 'go');
    await turn();
    expect(types(run.events).filter((type) => type.startsWith('tool_started'))).toEqual([
      'tool_started:p1',
      'tool_started:p1/1',
      'tool_started:p1/1/1',
      'tool_started:p1/1/1/1',
    ]);
    expect(unsettledStarts(run.events)).toEqual([]);
    expect(types(run.events).at(-1)).toBe('run_completed');
  });
});

describe('a nested call whose outcome is settled never runs its tool (A5)', () => {
  it('a write-behind wrap layer calling next() after answering the call and after its caller ended', async () => {
    const { child, ran } = childTool();
    const late: Promise<unknown>[] = [];
    const callerEnded = deferred();
    const writeBehind: AgentMiddleware = {
      name: 'write_behind',
      wrapTool: async (call, next) => {
        if (call.name !== 'child') return next(call);
        late.push(callerEnded.promise.then(() => settled(next(call))));
        return ToolResult.success('cached');
      },
    };
    const parent = defineTool({
      name: 'parent',
      description: 'Awaits child.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => (await context.callTool!('child', {})).output(),
    });
    const run = await new AgentHarness({
      model: model(async () => {
        callerEnded.resolve();
        await late[0];
      }),
      tools: [parent, child],
      middleware: [writeBehind],
    }).invoke('go');
    const outcome = (await late[0]) as { error?: unknown };
    expect(ran).toEqual([]);
    expect(outcome.error).toBeInstanceOf(Error);
    expect(run.messages.find((message) => message.role === 'tool')).toMatchObject({ content: 'cached' });
  });
});

describe('the middleware of a nested call never runs once its caller or the run ended (A1, A2)', () => {
  const audited = (seen: string[]): AgentMiddleware => ({
    name: 'audit',
    beforeTool: (call) => {
      if (call.name === 'child') seen.push('beforeTool');
      return undefined;
    },
    wrapTool: (call, next) => {
      if (call.name === 'child') seen.push('wrapTool');
      return next(call);
    },
  });

  it('a later beforeTool hook after the first held the call past its caller end (A1)', async () => {
    const release = deferred();
    const seen: string[] = [];
    const { child, ran } = childTool();
    const { parent, nested } = detachingParent();
    const hold: AgentMiddleware = {
      name: 'hold',
      beforeTool: async (call) => {
        if (call.name === 'child') await release.promise;
        return undefined;
      },
    };
    await new AgentHarness({
      model: model(async () => {
        release.resolve();
        await nested[0];
      }),
      tools: [parent, child],
      middleware: [hold, audited(seen)],
    }).invoke('go');
    const outcome = (await nested[0]) as { error?: unknown };
    expect(outcome.error).toMatchObject({ refusal: 'parent_ended' });
    expect(seen).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('a later beforeTool hook after the first held the call past the run end (A1b)', async () => {
    const release = deferred();
    const seen: string[] = [];
    const { child, ran } = childTool();
    const { parent, nested } = detachingParent();
    const hold: AgentMiddleware = {
      name: 'hold',
      beforeTool: async (call) => {
        if (call.name === 'child') await release.promise;
        return undefined;
      },
    };
    await new AgentHarness({ model: model(), tools: [parent, child], middleware: [hold, audited(seen)] }).invoke('go');
    release.resolve();
    const outcome = (await nested[0]) as { error?: unknown };
    expect(NestedCallRefusedError.isInstance(outcome.error)).toBe(true);
    expect(seen).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('an inner wrapTool layer after the outer one held the call past its caller end (A2)', async () => {
    const release = deferred();
    const seen: string[] = [];
    const { child, ran } = childTool();
    const { parent, nested } = detachingParent();
    const outer: AgentMiddleware = {
      name: 'outer',
      wrapTool: async (call, next) => {
        if (call.name === 'child') await release.promise;
        return next(call);
      },
    };
    const inner = audited(seen);
    const run = await new AgentHarness({
      model: model(async () => {
        release.resolve();
        await turn();
      }),
      tools: [parent, child],
      middleware: [outer, { name: 'inner', wrapTool: inner.wrapTool }],
    }).invoke('go');
    release.resolve();
    await nested[0];
    await turn();
    expect(seen).toEqual([]);
    expect(ran).toEqual([]);
    expect(unsettledStarts(run.events)).toEqual([]);
  });
});

describe('a calling tool ends when its execute settles, whatever its wrap layers still do (C1)', () => {
  it('a callTool made after execute returned, while an audit layer holds the result, is refused', async () => {
    const audit = deferred();
    const { child, ran } = childTool();
    let context: ToolExecutionContext | undefined;
    const parent = defineTool({
      name: 'parent',
      description: 'Keeps its context and returns.',
      parameters: object,
      execute: (_args: unknown, given: ToolExecutionContext) => {
        context = given;
        return 'parent done';
      },
    });
    const late = deferred<unknown>();
    const auditing: AgentMiddleware = {
      name: 'audit',
      wrapTool: async (call, next) => {
        const result = await next(call);
        if (call.name === 'parent') {
          late.resolve(settled(context!.callTool!('child', {})));
          await audit.promise;
        }
        return result;
      },
    };
    const harness = new AgentHarness({ model: model(), tools: [parent, child], middleware: [auditing] });
    const running = harness.invoke('go');
    const outcome = (await late.promise) as { error?: unknown };
    audit.resolve();
    const run = await running;
    expect(outcome.error).toMatchObject({ refusal: 'parent_ended', parentCallId: 'p1' });
    expect(ran).toEqual([]);
    expect(types(run.events)).not.toContain('tool_started:p1/1');
  });

  it('a nested call still running when execute returned is aborted then, not when the layers settle', async () => {
    const audit = deferred();
    const never = new Promise<never>(() => {});
    const { child } = childTool(() => never);
    const { parent, nested } = detachingParent();
    const auditing: AgentMiddleware = {
      name: 'audit',
      wrapTool: async (call, next) => {
        const result = await next(call);
        if (call.name === 'parent') await audit.promise;
        return result;
      },
    };
    const running = new AgentHarness({ model: model(), tools: [parent, child], middleware: [auditing] }).invoke('go');
    while (nested.length === 0) await turn();
    // Settled while the audit layer still holds the parent's result.
    const outcome = (await Promise.race([nested[0], turn().then(() => ({ pending: true }))])) as { error?: unknown };
    expect(outcome.error).toMatchObject({ refusal: 'parent_ended', started: true });
    audit.resolve();
    const run = await running;
    const order = types(run.events);
    expect(order.indexOf('tool_failed:p1/1')).toBeLessThan(order.indexOf('tool_completed:p1'));
  });
});

describe('a nested call abandoned by its caller reports nothing after its outcome (C2)', () => {
  it('its emit and reportProgress after its tool_failed are dropped', async () => {
    const resume = deferred();
    const { child } = childTool(async (context) => {
      await resume.promise;
      context.emit({ late: true });
      context.reportProgress({ message: 'late' });
    });
    const { parent, nested } = detachingParent();
    const run = await new AgentHarness({
      model: model(async () => {
        await nested[0];
        resume.resolve();
        await turn();
      }),
      tools: [parent, child],
    }).invoke('go');
    const order = types(run.events);
    const outcome = order.indexOf('tool_failed:p1/1');
    expect(outcome).toBeGreaterThan(0);
    expect(order.slice(outcome + 1).filter((type) => type.endsWith(':p1/1'))).toEqual([]);
  });
});
