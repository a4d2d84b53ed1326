import { defineTool } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { LimitExceededError } from '../errors/limit-exceeded-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { eventTypes, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';

const user = [{ role: 'user' as const, content: 'go' }];
// Generous bounds: they tell "ended at the deadline" from "waited for the call" (grace is measured in the bench).
const NEVER_MS = 1000;

async function timed(run: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await run();
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
  throw new Error('expected the run to fail');
}

function expectWallClock(error: unknown): void {
  expect(LimitExceededError.isInstance(error)).toBe(true);
  expect((error as LimitExceededError).limitKind).toBe('wall_clock');
}

describe('limits.wallClockMs while a call is in flight', () => {
  it.each([false, true])(
    'ends a run whose model never answers and ignores its signal (streaming: %s)',
    async (streaming) => {
      const model = new ScriptedModel({ steps: [() => new Promise(() => undefined)] });
      const events: AgentEvent[] = [];
      const harness = new AgentHarness({ model, limits: { wallClockMs: 100 } });
      const { error, ms } = await timed(async () => {
        if (!streaming) return harness.invoke({}, user, { onEvent: (event) => events.push(event) });
        const stream = harness.stream({}, user, { onEvent: (event) => events.push(event) });
        return stream.result;
      });
      expectWallClock(error);
      expect(ms).toBeGreaterThanOrEqual(95);
      expect(ms).toBeLessThan(NEVER_MS);
      expect(eventTypes(events).slice(-2)).toEqual(['limit_reached', 'run_failed']);
      expect(model.requests[0]?.abortSignal?.aborted).toBe(true);
      expect(LimitExceededError.isInstance(model.requests[0]?.abortSignal?.reason)).toBe(true);
    },
  );

  it('ends a run whose tool ignores its signal; the call gets tool_failed and its row stays started', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const slow = defineTool({
      name: 'slow',
      description: '',
      parameters: { type: 'object' },
      execute: () => new Promise((resolve) => setTimeout(() => resolve('late'), 1500)),
    });
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('slow', {}, 's1')] }, { content: 'x' }] });
    const harness = new AgentHarness({ model, tools: [slow], ledger, limits: { wallClockMs: 100 } });
    let events: readonly AgentEvent[] = [];
    const { error, ms } = await timed(() =>
      harness.invoke({ runId: 'slow' }, user, { onEvent: (event) => (events = [...events, event]) }),
    );
    expectWallClock(error);
    expect(ms).toBeLessThan(NEVER_MS); // the tool would take 1500 ms
    expect(toolEventViolations(events)).toEqual([]);
    expect(events.find((event) => event.type === 'tool_failed')).toMatchObject({ callId: 's1' });
    expect(ledger.rows('slow').map((row) => row.status)).toEqual(['started']);
    expect(model.calls).toBe(1);
  });

  it('aborts the signal a cooperative tool holds, with the limit as the reason', async () => {
    let reason: unknown;
    const waits = defineTool({
      name: 'waits',
      description: '',
      parameters: { type: 'object' },
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            reason = context.signal.reason;
            reject(context.signal.reason);
          });
        }),
    });
    const model = new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('waits', {}, 'w1')] }] });
    const { error } = await timed(() =>
      new AgentHarness({ model, tools: [waits], limits: { wallClockMs: 60 } }).invoke({}, user),
    );
    expectWallClock(error);
    expect(LimitExceededError.isInstance(reason)).toBe(true);
  });

  it('keeps the host signal as the cancellation path and clears the timer after a run', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const run = await new AgentHarness({ model, limits: { wallClockMs: 50 } }).invoke({}, user);
    expect(run.text).toBe('done');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(model.requests[0]?.abortSignal?.aborted).toBe(false);
    const controller = new AbortController();
    const hanging = new ScriptedModel({ steps: [() => new Promise(() => undefined)] });
    setTimeout(() => controller.abort(new Error('host stop')), 20);
    const { error } = await timed(() =>
      new AgentHarness({ model: hanging, limits: { wallClockMs: 5_000 } }).invoke({ signal: controller.signal }, user),
    );
    expect((error as Error).name).toBe('RunCancelledError');
  });

  it('accepts deadlines beyond the 32-bit timer range without firing early', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'done' }] });
    const run = await new AgentHarness({ model, limits: { wallClockMs: 3_000_000_000 } }).invoke({}, user);
    expect(run.text).toBe('done');
  });
});
