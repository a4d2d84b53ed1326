import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { RunCancelledError } from '../errors/run-cancelled-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function trackedTool(name: string, safe: boolean, gauge: { now: number; max: number; order: string[] }) {
  return defineTool({
    name,
    description: '',
    parameters: Type.Object({ n: Type.Integer(), ms: Type.Integer() }),
    isConcurrencySafe: () => safe,
    execute: async ({ n, ms }) => {
      gauge.now += 1;
      gauge.max = Math.max(gauge.max, gauge.now);
      await sleep(ms);
      gauge.now -= 1;
      gauge.order.push(`${name}${n}`);
      return `${name}${n}`;
    },
  });
}

describe('batch execution', () => {
  it('runs concurrency-safe calls at most maxConcurrency at a time and folds in call order', async () => {
    const gauge = { now: 0, max: 0, order: [] as string[] };
    const safe = trackedTool('safe', true, gauge);
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [40, 5, 25, 1].map((ms, n) => scriptedToolCall('safe', { n, ms }, `c${n}`)) },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [safe], policy: { maxConcurrency: 2 } }).invoke({}, user('go'));
    expect(gauge.max).toBe(2);
    expect(gauge.order).not.toEqual(['safe0', 'safe1', 'safe2', 'safe3']);
    const tools = run.messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => messageText(message))).toEqual(['safe0', 'safe1', 'safe2', 'safe3']);
    expect(tools.map((message) => message.role === 'tool' && message.toolCallId)).toEqual(['c0', 'c1', 'c2', 'c3']);
    // All four starts are announced before any completes.
    const kinds = run.events.filter((event) => event.type.startsWith('tool_')).map((event) => event.type);
    expect(kinds.slice(0, 4)).toEqual(['tool_started', 'tool_started', 'tool_started', 'tool_started']);
    expect(toolEventViolations(run.events)).toEqual([]);
  });

  it('runs the batch serially when one call is not concurrency-safe', async () => {
    const gauge = { now: 0, max: 0, order: [] as string[] };
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('safe', { n: 0, ms: 10 }),
            scriptedToolCall('unsafe', { n: 1, ms: 1 }),
            scriptedToolCall('safe', { n: 2, ms: 1 }),
          ],
        },
        { content: 'done' },
      ],
    });
    const tools = [trackedTool('safe', true, gauge), trackedTool('unsafe', false, gauge)];
    await new AgentHarness({ model, tools, policy: { maxConcurrency: 4 } }).invoke({}, user('go'));
    expect(gauge.max).toBe(1);
    expect(gauge.order).toEqual(['safe0', 'unsafe1', 'safe2']);
  });

  it('stops promptly on abort mid-tool, without tool_completed for the aborted call', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: '',
      parameters: Type.Object({}),
      execute: (_args, context) =>
        new Promise<string>((resolve) => {
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
          });
          setTimeout(() => resolve('late'), 60_000).unref();
        }),
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('slow', {}, 's1')] }, { content: 'never' }],
    });
    const events: { type: string; callId?: string }[] = [];
    setTimeout(() => controller.abort(new Error('user pressed stop')), 30);
    const error = await new AgentHarness({ model, tools: [slow] })
      .invoke({ signal: controller.signal }, user('go'), { onEvent: (event) => events.push(event) })
      .catch((e: unknown) => e);
    expect(RunCancelledError.isInstance(error)).toBe(true);
    expect(sawAbort).toBe(true);
    expect(events.some((event) => event.type === 'tool_completed')).toBe(false);
    expect(events.filter((event) => event.type === 'tool_failed').map((event) => event.callId)).toEqual(['s1']);
    expect(model.calls).toBe(1);
  });

  it('enforces per-tool timeouts through the context signal', async () => {
    let aborted = false;
    const stuck = defineTool({
      name: 'stuck',
      description: '',
      parameters: Type.Object({}),
      policy: ToolPolicy.classified().withRuntime({ timeoutMs: 20 }),
      execute: (_args, context) =>
        new Promise<string>(() => {
          context.signal.addEventListener('abort', () => {
            aborted = true;
          });
        }),
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('stuck', {})] }, { content: 'moved on' }],
    });
    const run = await new AgentHarness({
      model,
      tools: [stuck],
      policy: { toolErrors: { kind: 'return_error' } },
    }).invoke({}, user('go'));
    expect(aborted).toBe(true);
    expect(messageText(run.messages.find((message) => message.role === 'tool') as Message)).toBe(
      'tool `stuck` timed out after 20 ms',
    );
    expect(run.text).toBe('moved on');
  });

  it('runs nested calls with <parent>/<n> ids and parent links in events', async () => {
    const inner = defineTool({
      name: 'inner',
      description: '',
      parameters: Type.Object({ x: Type.Integer() }),
      execute: ({ x }) => String(x * 2),
    });
    const outer = defineTool({
      name: 'outer',
      description: '',
      parameters: Type.Object({}),
      execute: async (_args, context) => {
        const a = await context.callTool?.('inner', { x: 1 });
        const b = await context.callTool?.('inner', { x: 2 });
        return `${a?.output()}+${b?.output()}`;
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('outer', {}, 'p')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [inner, outer] }).invoke({}, user('go'));
    expect(messageText(run.messages.find((message) => message.role === 'tool') as Message)).toBe('2+4');
    expect(eventsOfType(run.events, 'tool_started').map((event) => [event.callId, event.parentCallId])).toEqual([
      ['p', undefined],
      ['p/1', 'p'],
      ['p/2', 'p'],
    ]);
    expect(run.toolCalls).toBe(3);
    expect(toolEventViolations(run.events)).toEqual([]);
  });

  it('emits custom events and progress only while the call runs', async () => {
    const chatty = defineTool({
      name: 'chatty',
      description: '',
      parameters: Type.Object({}),
      execute: (_args, context) => {
        context.emit({ step: 'fetch' });
        context.reportProgress({ message: 'half', fraction: 7 });
        setTimeout(() => context.reportProgress({ message: 'too late' }), 0);
        return 'ok';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('chatty', {}, 'k')] }, { content: 'ok' }],
    });
    const run = await new AgentHarness({ model, tools: [chatty] }).invoke({}, user('go'));
    await sleep(5);
    expect(eventsOfType(run.events, 'custom')).toEqual([{ type: 'custom', callId: 'k', payload: { step: 'fetch' } }]);
    expect(eventsOfType(run.events, 'tool_progress')).toEqual([
      { type: 'tool_progress', callId: 'k', message: 'half', fraction: 1 },
    ]);
  });
});

describe('tool context', () => {
  it('exposes host state, store, run and thread ids, and nothing of the loop', async () => {
    let seen: Record<string, unknown> = {};
    const probe = defineTool({
      name: 'probe',
      description: '',
      parameters: Type.Object({}),
      execute: (_args, context) => {
        seen = {
          state: context.state,
          store: context.store,
          runId: context.runId,
          threadId: context.threadId,
          callId: context.callId,
          depth: context.depth,
          aborted: context.signal.aborted,
          keys: Object.keys(context).sort(),
        };
        return 'ok';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('probe', {}, 'q1')] }, { content: 'ok' }],
    });
    await new AgentHarness({ model, tools: [probe] }).invoke(
      { runId: 'r9', threadId: 't3', state: { cart: 2 }, store: 'db-handle', hostValues: { secret: 'x' } },
      user('go'),
    );
    expect(seen).toMatchObject({
      state: { cart: 2 },
      store: 'db-handle',
      runId: 'r9',
      threadId: 't3',
      callId: 'q1',
      depth: 0,
      aborted: false,
    });
    expect(JSON.stringify(seen.keys)).not.toContain('secret');
    expect(seen.keys).not.toContain('history');
  });
});

describe('cancellation mid-batch (regression)', () => {
  it('gives every started call a terminal event when a later call of a serial batch is cancelled', async () => {
    const controller = new AbortController();
    const quick = defineTool({
      name: 'quick',
      description: '',
      parameters: Type.Object({}),
      execute: async () => 'fast',
    });
    const stuck = defineTool({
      name: 'stuck',
      description: '',
      parameters: Type.Object({}),
      execute: async () => {
        controller.abort(new Error('stop'));
        return new Promise<string>(() => {});
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('quick', {}, 'q'), scriptedToolCall('stuck', {}, 's')] }],
    });
    const events: AgentEvent[] = [];
    const error = await new AgentHarness({ model, tools: [quick, stuck] })
      .invoke({ signal: controller.signal }, user('go'), { onEvent: (event) => events.push(event) })
      .catch((caught: unknown) => caught);
    expect(RunCancelledError.isInstance(error)).toBe(true);
    expect(toolEventViolations(events)).toEqual([]);
    expect(eventsOfType(events, 'tool_failed').map((event) => event.callId)).toEqual(['q', 's']);
  });
});
