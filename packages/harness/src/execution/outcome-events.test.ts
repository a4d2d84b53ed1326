import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { AgentEvent } from '../events/agent-event.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';

// Repros of runs that left a started call without its outcome event: a nested call whose outcome
// the run's end overtook, a parallel batch whose execution threw outside the tool, and a fold stopped
// part-way (plus an aborted parallel batch with a nested call, as a guard). Each checks the record:
// every `tool_started` has exactly one `tool_completed` / `tool_failed`, and nothing follows the final event.

const user = [{ role: 'user' as const, content: 'go' }];
const turnOut = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A nested tool that takes a while, ending early when its signal aborts. */
const leaf = defineTool({
  name: 'leaf',
  description: 'A slow nested tool.',
  parameters: Type.Object({}),
  execute: (_args, context) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('leaf'), 50);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(context.signal.reason);
      });
    }),
});

/** Runs the harness, keeping what its listener saw until well after the run settled. */
async function record(harness: AgentHarness, signal?: AbortSignal) {
  const seen: AgentEvent[] = [];
  const ended = await harness.invoke({ signal }, user, { onEvent: (event) => seen.push(event) }).then(
    (run) => ({ run, error: undefined }),
    (error: unknown) => ({ run: undefined, error }),
  );
  const atEnd = seen.length;
  await turnOut();
  return { ...ended, seen, late: seen.slice(atEnd) };
}

function expectWholeRecord(seen: readonly AgentEvent[], late: readonly AgentEvent[]): void {
  expect(toolEventViolations(seen)).toEqual([]);
  expect(late).toEqual([]);
  expect(seen.at(-1)?.type).toMatch(/^run_(completed|failed)$/);
}

describe('every started call has one outcome event before the final one', () => {
  it('a nested call its synchronous caller left running, when the run ends right after', async () => {
    const starter = defineTool({
      name: 'starter',
      description: 'Starts a nested call without waiting for it and answers directly.',
      parameters: Type.Object({}),
      nestedTools: [leaf],
      returnDirect: true,
      execute: (_args, context) => {
        context.callTool?.('leaf', {}).catch(() => undefined);
        return 'answered';
      },
    });
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('starter', {}, 's')] }] });
    const { run, seen, late } = await record(new AgentHarness({ model, tools: [starter] }));
    expect(run?.outcome).toBe('return_direct');
    expectWholeRecord(seen, late);
    const failed = eventsOfType(seen, 'tool_failed');
    expect(failed.map((event) => [event.callId, event.parentCallId])).toEqual([['s/1', 's']]);
    expect(run?.events).toEqual(seen);
  });

  it('a nested call overtaken by an aborted parallel batch', async () => {
    const controller = new AbortController();
    const aborter = defineTool({
      name: 'aborter',
      description: 'Starts a nested call, then cancels the run.',
      parameters: Type.Object({}),
      nestedTools: [leaf],
      isConcurrencySafe: () => true,
      execute: (_args, context) => {
        context.callTool?.('leaf', {}).catch(() => undefined);
        controller.abort(new Error('host stop'));
        return 'stopping';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('aborter', {}, 'a'), scriptedToolCall('aborter', {}, 'b')] }],
    });
    const harness = new AgentHarness({ model, tools: [aborter], policy: { maxConcurrency: 2 } });
    const { error, seen, late } = await record(harness, controller.signal);
    expect(error).toMatchObject({ name: 'RunCancelledError' });
    expectWholeRecord(seen, late);
    expect(eventsOfType(seen, 'tool_started').map((event) => event.callId)).toEqual(['a', 'b', 'a/1']);
  });

  it('a parallel batch whose execution throws outside the tool (its idempotency key function)', async () => {
    const ran: number[] = [];
    const keyed = defineTool({
      name: 'keyed',
      description: 'A tool whose idempotency key function fails for n = 1.',
      parameters: Type.Object({ n: Type.Integer() }),
      policy: ToolPolicy.readOnly(),
      isConcurrencySafe: () => true,
      idempotencyKey: ({ n }) => {
        if (n === 1) throw new Error('key function bug');
        return `keyed-${n}`;
      },
      execute: async ({ n }) => {
        ran.push(n);
        await turnOut();
        return `keyed ${n}`;
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [0, 1, 2].map((n) => scriptedToolCall('keyed', { n }, `k${n}`)) }, { content: 'x' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [keyed],
      ledger: new InMemoryToolEffectLedger(),
      policy: { maxConcurrency: 3 },
    });
    const { error, seen, late } = await record(harness);
    // The failure is typed and names the call; the siblings ran to their end before the run failed.
    expect(error).toMatchObject({ name: 'ToolExecutionError', callId: 'k1' });
    expect((error as Error).message).toContain('key function bug');
    expect(ran.sort()).toEqual([0, 2]);
    expectWholeRecord(seen, late);
    expect(
      eventsOfType(seen, 'tool_failed')
        .map((event) => event.callId)
        .sort(),
    ).toEqual(['k0', 'k1', 'k2']);
  });

  it('a fold stopped part-way by an afterTool hook', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      parameters: Type.Object({ n: Type.Integer() }),
      isConcurrencySafe: () => true,
      execute: async ({ n }) => `echo ${n}`,
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [0, 1, 2].map((n) => scriptedToolCall('echo', { n }, `e${n}`)) }, { content: 'x' }],
    });
    const harness = new AgentHarness({
      model,
      tools: [echo],
      policy: { maxConcurrency: 3 },
      middleware: [
        {
          name: 'audit',
          afterTool: (call) => {
            if (call.id === 'e1') throw new Error('audit store down');
            return undefined;
          },
        },
      ],
    });
    const { error, seen, late } = await record(harness);
    expect(error).toMatchObject({ name: 'MiddlewareError' });
    expectWholeRecord(seen, late);
    const outcomes = seen.filter((event) => event.type === 'tool_completed' || event.type === 'tool_failed');
    expect(outcomes.map((event) => `${event.type}:${(event as { callId: string }).callId}`)).toEqual([
      'tool_completed:e0',
      'tool_failed:e1',
      'tool_failed:e2',
    ]);
  });
});
