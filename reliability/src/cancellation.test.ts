import {
  AgentHarness,
  type AgentMiddleware,
  DeferredToolResults,
  InMemoryToolEffectLedger,
  RunCancelledError,
} from '@tiny/harness';
import { ScriptedModel, scriptedToolCall, toolEventViolations } from '@tiny/harness/testkit';
import type { LanguageModelV1Request } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';

const RUNS = Number(process.env.CANCEL_RUNS ?? 150);
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** A world where every stage takes a few milliseconds, so an abort can land anywhere. */
function slowWorld(delays: { model: number; tool: number; hook: number }) {
  let running = 0;
  const slowTool = defineTool({
    name: 'slow',
    description: '',
    parameters: Type.Object({ n: Type.Integer() }),
    policy: ToolPolicy.classified().withRuntime({ replay: 'never' }),
    execute: async ({ n }, context) => {
      running += 1;
      try {
        await sleep(delays.tool, context.signal);
        return `done ${n}`;
      } finally {
        running -= 1;
      }
    },
  });
  const needsApproval = defineTool({
    name: 'gated',
    description: '',
    parameters: Type.Object({}),
    policy: ToolPolicy.classified().requiringApproval(),
    execute: async (_args, context) => {
      running += 1;
      try {
        await sleep(delays.tool, context.signal);
        return 'gated done';
      } finally {
        running -= 1;
      }
    },
  });
  const hook: AgentMiddleware = { name: 'slow_hook', beforeTool: async () => sleep(delays.hook).then(() => undefined) };
  const model = new ScriptedModel({
    steps: [
      async (request: LanguageModelV1Request) => {
        await sleep(delays.model, request.abortSignal);
        return {
          toolCalls: [
            scriptedToolCall('slow', { n: 1 }),
            scriptedToolCall('gated', {}),
            scriptedToolCall('slow', { n: 2 }),
          ],
        };
      },
      async (request: LanguageModelV1Request) => {
        await sleep(delays.model, request.abortSignal);
        return { content: 'finished' };
      },
    ],
  });
  return { model, tools: [slowTool, needsApproval], hook, running: () => running };
}

describe(`cancellation at random points (${RUNS} runs)`, () => {
  it('ends the run with RunCancelledError, leaves no tool running and the ledger consistent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          model: fc.integer({ min: 0, max: 6 }),
          tool: fc.integer({ min: 0, max: 6 }),
          hook: fc.integer({ min: 0, max: 3 }),
        }),
        fc.integer({ min: 0, max: 25 }),
        fc.boolean(),
        async (delays, abortAfter, viaResume) => {
          const world = slowWorld(delays);
          const ledger = new InMemoryToolEffectLedger();
          const harness = new AgentHarness({
            model: world.model,
            tools: world.tools,
            middleware: [world.hook],
            ledger,
          });
          const controller = new AbortController();
          const events: { type: string; callId?: string }[] = [];
          let runPromise: Promise<unknown>;
          if (viaResume) {
            const paused = await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
            if (!paused.state) return;
            setTimeout(() => controller.abort(new Error('stop')), abortAfter);
            runPromise = harness.resumeDeferred(
              { signal: controller.signal },
              paused.state,
              new DeferredToolResults().approveAll(paused.deferred as never),
              { onEvent: (event) => events.push(event) },
            );
          } else {
            setTimeout(() => controller.abort(new Error('stop')), abortAfter);
            runPromise = harness.invoke({ runId: 'r', signal: controller.signal }, [{ role: 'user', content: 'go' }], {
              onEvent: (event) => events.push(event),
            });
          }
          const outcome = await runPromise.then(
            () => 'finished',
            (error: unknown) => error,
          );
          if (outcome !== 'finished') expect(RunCancelledError.isInstance(outcome), String(outcome)).toBe(true);
          // Nothing keeps running after the run settles.
          await sleep(10);
          expect(world.running()).toBe(0);
          expect(
            toolEventViolations(events as never),
            JSON.stringify(events.map((event) => [event.type, event.callId])),
          ).toEqual([]);
          // Every started row is settled, except calls cut off mid-execution (left for reconciliation).
          const cutOff = new Set(events.filter((event) => event.type === 'tool_failed').map((event) => event.callId));
          for (const row of await ledger.unresolved('r')) expect(cutOff.has(row.callId)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
