import { defineTool, type ToolExecutionContext } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import type { AgentMiddleware } from '../middleware/agent-middleware.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// A `wrapTool` layer that calls `next()` more than once (a retry, or two at once): each `execute`
// run has its own liveness, so a run that ended makes no nested call, emits nothing and reports no
// progress, even while another run of the same call goes on (/tmp/breakers/nested-history-2 a1).

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

function sideTool() {
  const ran: string[] = [];
  const side = defineTool({
    name: 'side',
    description: 'The nested tool.',
    parameters: object,
    execute: (args: { tag?: string }) => {
      ran.push(String(args.tag));
      return `side ${args.tag}`;
    },
  });
  return { side, ran };
}

const retry: AgentMiddleware = {
  name: 'retry',
  wrapTool: async (call, next) => {
    if (call.name !== 'parent') return next(call);
    try {
      return await next(call);
    } catch {
      return await next(call);
    }
  },
};

const twice: AgentMiddleware = {
  name: 'twice',
  wrapTool: async (call, next) => {
    if (call.name !== 'parent') return next(call);
    const [first] = await Promise.all([next(call), next(call)]);
    return first;
  },
};

const harnessFor = (tools: Parameters<typeof defineTool>[0][] | unknown[], middleware: AgentMiddleware) =>
  new AgentHarness({
    model: new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'c1')] }, { content: 'done' }] }),
    tools: tools as never,
    middleware: [middleware],
  });

describe('a wrapTool layer that runs execute again', () => {
  it("refuses an ended execute's late callTool while the retry runs, and the retry's own calls work", async () => {
    const { side, ran } = sideTool();
    const firstEnded = deferred();
    const lateCall = deferred<Promise<unknown>>();
    let ownOutput: unknown;
    let attempt = 0;
    const parent = defineTool({
      name: 'parent',
      description: 'Fails once, then succeeds.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        attempt += 1;
        if (attempt === 1) {
          void firstEnded.promise.then(() => {
            context.emit({ from: 'first' });
            context.reportProgress({ fraction: 0.5, message: 'first' });
            lateCall.resolve(settled(context.callTool?.('side', { tag: 'first' }) as Promise<unknown>));
          });
          throw new Error('transient');
        }
        firstEnded.resolve();
        const late = await lateCall.promise;
        const own = await context.callTool?.('side', { tag: 'second' });
        ownOutput = own?.output();
        return { late: String(late), own: String(ownOutput) };
      },
    });
    const run = await harnessFor([parent, side], retry).invoke('go');
    expect(ran).toEqual(['second']);
    expect(ownOutput).toBe('side second');
    expect(run.events.some((event) => event.type === 'tool_completed' && event.callId === 'c1')).toBe(true);
    const late = (await lateCall.promise) as { error?: unknown };
    expect(NestedCallRefusedError.isInstance(late.error)).toBe(true);
    expect((late.error as NestedCallRefusedError).refusal).toBe('parent_ended');
    const reported = run.events.filter(
      (event) => (event.type === 'custom' || event.type === 'tool_progress') && JSON.stringify(event).includes('first'),
    );
    expect(reported).toEqual([]);
  });

  it('gives each of two concurrent next() calls its own liveness', async () => {
    const { side, ran } = sideTool();
    const firstEnded = deferred();
    const lateCall = deferred<Promise<unknown>>();
    let attempt = 0;
    const parent = defineTool({
      name: 'parent',
      description: 'Runs twice at once.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        attempt += 1;
        if (attempt === 1) {
          void firstEnded.promise.then(() =>
            lateCall.resolve(settled(context.callTool?.('side', { tag: 'first' }) as Promise<unknown>)),
          );
          return 'first';
        }
        // Run #1 has returned and settled (a macrotask runs after its pending microtasks).
        await new Promise((done) => setTimeout(done, 0));
        firstEnded.resolve();
        const late = (await lateCall.promise) as { error?: unknown };
        const own = await context.callTool?.('side', { tag: 'second' });
        return `${NestedCallRefusedError.isInstance(late.error) ? 'refused' : 'ran'} ${own?.output()}`;
      },
    });
    const run = await harnessFor([parent, side], twice).invoke('go');
    expect(ran).toEqual(['second']);
    const late = (await lateCall.promise) as { error?: unknown };
    expect((late.error as NestedCallRefusedError).refusal).toBe('parent_ended');
    expect(run.events.some((event) => event.type === 'tool_completed' && event.callId === 'c1')).toBe(true);
  });
  it('aborts the nested call an ended run left running while the other run of the call goes on', async () => {
    const release = deferred();
    const slowRan: boolean[] = [];
    const slow = defineTool({
      name: 'slow',
      description: 'A nested tool that waits.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        await release.promise;
        slowRan.push(context.signal.aborted);
        return 'slow';
      },
    });
    let inFlight: Promise<unknown> | undefined;
    let attempt = 0;
    const parent = defineTool({
      name: 'parent',
      description: 'Runs twice at once.',
      parameters: object,
      execute: async (_args: unknown, context: ToolExecutionContext) => {
        attempt += 1;
        if (attempt === 1) {
          inFlight = settled(context.callTool?.('slow', {}) as Promise<unknown>);
          return 'first';
        }
        // Run #1 has returned and settled (a macrotask runs after its pending microtasks).
        await new Promise((done) => setTimeout(done, 0));
        const outcome = (await inFlight) as { error?: unknown };
        release.resolve();
        return NestedCallRefusedError.isInstance(outcome.error) ? outcome.error.refusal : 'ran';
      },
    });
    const run = await harnessFor([parent, slow], twice).invoke('go');
    const outcome = (await inFlight) as { error?: unknown };
    expect((outcome.error as NestedCallRefusedError).refusal).toBe('parent_ended');
    expect(run.events.some((event) => event.type === 'tool_failed' && event.callId === 'c1/1')).toBe(true);
    await new Promise((done) => setTimeout(done, 0));
    expect(slowRan).toEqual([true]);
  });
});
