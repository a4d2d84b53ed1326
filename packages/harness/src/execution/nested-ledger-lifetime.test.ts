import { defineTool, type ToolExecutionContext } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { NestedCallRefusedError } from '../errors/nested-call-refused-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import type { ToolEffectLedger } from '../ledger/tool-effect-ledger.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';

// The repros of a tester's breaks with a slow ledger (/tmp/breakers/nested-r2 b2 started|settled,
// b3): a nested call whose ledger write outlasts its caller still has exactly one outcome, reported
// before the run's final event, and one refused during its `started` write gives its tool-call slot back.

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const object = { type: 'object', properties: {}, additionalProperties: true } as const;

/** An in-memory ledger whose `started` or `settled` write of nested calls waits for `release`. */
function slowLedger(slow: 'started' | 'settled', release: Promise<unknown>): ToolEffectLedger {
  const inner = new InMemoryToolEffectLedger();
  return {
    started: async (row) => {
      if (slow === 'started' && row.callId.includes('/')) await release;
      return inner.started(row);
    },
    settled: async (row) => {
      if (slow === 'settled' && row.callId.includes('/')) await release;
      return inner.settled(row);
    },
    unresolved: (runId) => inner.unresolved(runId),
  };
}

function outcomesPerStart(events: readonly AgentEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of events) {
    if (event.type === 'tool_started') counts[event.callId] ??= 0;
    if (event.type === 'tool_completed' || event.type === 'tool_failed')
      counts[event.callId] = (counts[event.callId] ?? 0) + 1;
  }
  return counts;
}

function detachingParent(onNested: (pending: Promise<unknown>) => void) {
  return defineTool({
    name: 'parent',
    description: 'Starts child and returns.',
    parameters: object,
    execute: (_args: unknown, context: ToolExecutionContext) => {
      onNested(context.callTool!('child', {}).catch((error: unknown) => ({ error })));
      return 'parent done';
    },
  });
}

describe('a nested call under a slow ledger never outlives its caller', () => {
  for (const slow of ['started', 'settled'] as const) {
    it(`a ledger ${slow} write outlasting the caller still reports one outcome before run_completed (b2 ${slow})`, async () => {
      const release = deferred();
      const ran: boolean[] = [];
      const child = defineTool({
        name: 'child',
        description: 'The nested tool.',
        parameters: object,
        execute: (_args: unknown, context: ToolExecutionContext) => {
          ran.push(context.signal.aborted);
          return 'child ran';
        },
      });
      let nested: Promise<unknown> | undefined;
      const parent = detachingParent((pending) => {
        nested = pending;
      });
      const model = new ScriptedModel({
        steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'ok' }],
      });
      const ledger = slowLedger(slow, release.promise);
      const run = await new AgentHarness({ model, tools: [parent, child], ledger }).invoke('go');
      const outcome = (await nested) as { error?: unknown };
      expect(outcome.error).toMatchObject({ name: 'NestedCallRefusedError', refusal: 'parent_ended' });
      expect(outcomesPerStart(run.events)).toEqual({ p1: 1, 'p1/1': 1 });
      const types = run.events.map((event) => event.type);
      expect(types.lastIndexOf('tool_failed')).toBeLessThan(types.indexOf('run_completed'));
      release.resolve();
      await new Promise((done) => setImmediate(done));
      // Its caller returned before its `started` row was written: the tool never runs, then or later.
      expect(ran).toEqual([]);
    });
  }

  it('a nested call refused during its ledger started write gives its tool-call slot back (b3)', async () => {
    const release = deferred();
    const executed: string[] = [];
    const child = defineTool({
      name: 'child',
      description: 'The nested tool.',
      parameters: object,
      execute: () => {
        executed.push('child');
        return 'c';
      },
    });
    const other = defineTool({
      name: 'other',
      description: 'Another tool.',
      parameters: object,
      execute: () => {
        executed.push('other');
        return 'o';
      },
    });
    let nested: Promise<unknown> | undefined;
    const parent = detachingParent((pending) => {
      nested = pending;
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('parent', {}, 'p1')] },
        async () => {
          // The nested call's `started` write ends now: it is refused (its caller ended) before this turn's call.
          release.resolve();
          await new Promise((done) => setImmediate(done));
          return { toolCalls: [scriptedToolCall('other', {}, 'o1')] };
        },
        { content: 'ok' },
      ],
    });
    const harness = new AgentHarness({
      model,
      tools: [parent, child, other],
      ledger: slowLedger('started', release.promise),
      limits: { maxToolCalls: 2 },
    });
    const run = await harness.invoke('go');
    expect(run.outcome).toBe('final');
    expect(executed).toEqual(['other']);
    expect(NestedCallRefusedError.isInstance(((await nested) as { error?: unknown }).error)).toBe(true);
  });
});
