import { AgentHarness, LimitExceededError, RunCancelledError } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, InvalidInputError, TinyError } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.OPTIONS_RUNS ?? propertyRuns(1000));
/** The host's own stop: a run still going after this many model calls has no effective limit. */
const SAFETY_CALLS = 60;

const numberArb = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 0, 0.5, 1, 2, 1e15, -0),
  fc.integer({ min: -5, max: 40 }),
  fc.double({ noNaN: false }),
  fc.constantFrom('5', null, true, undefined) as fc.Arbitrary<unknown>,
);
/** Mostly valid values (so runs happen), sometimes anything from {@link numberArb}. */
const option = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: numberArb });
const countOrInfinity = fc.oneof(
  fc.integer({ min: 0, max: 30 }),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(1e15),
);
const limitsArb = fc.record(
  {
    maxModelCalls: option(countOrInfinity),
    maxToolCalls: option(countOrInfinity),
    maxToolDepth: option(fc.integer({ min: 0, max: 256 })),
    maxRetriesPerCall: option(fc.integer({ min: 0, max: 3 })),
    wallClockMs: option(fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(Number.POSITIVE_INFINITY))),
    retryDelayMs: option(fc.integer({ min: 0, max: 5 })),
  },
  { requiredKeys: [] },
);
const policyArb = fc.record(
  {
    maxConcurrency: option(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constant(Number.POSITIVE_INFINITY))),
    droppedToolCallNudges: option(fc.integer({ min: 0, max: 3 })),
  },
  { requiredKeys: [] },
);

describe(`random numeric options (${RUNS} runs)`, () => {
  it('always give a typed error naming the option, or a run that ends within its limits', async () => {
    const outcomes = { invalid: 0, limit: 0, unbounded: 0 };
    await fc.assert(
      fc.asyncProperty(limitsArb, policyArb, fc.boolean(), async (limits, policy, perRun) => {
        const controller = new AbortController();
        let modelCalls = 0;
        // A model that always calls a tool: only a limit (or the host) ends the run.
        const model = new ScriptedModel({
          recordRequests: false,
          repeatLast: true,
          steps: [
            () => {
              modelCalls += 1;
              if (modelCalls >= SAFETY_CALLS) controller.abort(new Error('safety stop'));
              return { toolCalls: [scriptedToolCall('ping', {}), scriptedToolCall('ping', {})] };
            },
          ],
        });
        const ping = defineTool({
          name: 'ping',
          description: '',
          parameters: { type: 'object' },
          execute: () => 'pong',
        });
        let outcome: unknown;
        try {
          const harness = new AgentHarness({
            model,
            tools: [ping],
            ...(perRun ? {} : { limits: limits as never, policy: policy as never }),
          });
          outcome = await harness.invoke({ signal: controller.signal }, [{ role: 'user', content: 'go' }], {
            recordEvents: false,
            ...(perRun ? { limits: limits as never, policy: policy as never } : {}),
          });
        } catch (error) {
          outcome = error;
        }
        expect(TinyError.isInstance(outcome), `untyped: ${String(outcome)}`).toBe(true);
        if (InvalidInputError.isInstance(outcome)) {
          outcomes.invalid += 1;
          expect(outcome.message).toMatch(/`(options\.)?(limits|policy)\.\w+`/);
          expect(modelCalls).toBe(0);
          return;
        }
        const set = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
        const resolved = { maxModelCalls: 25, maxToolCalls: 50, maxToolDepth: 64, ...set } as Record<string, unknown>;
        if (RunCancelledError.isInstance(outcome)) {
          // Only budgets that allow that many calls (Infinity, or just large) may run until the host stops it.
          outcomes.unbounded += 1;
          expect(resolved.maxModelCalls as number).toBeGreaterThanOrEqual(SAFETY_CALLS);
          expect(resolved.maxToolCalls as number).toBeGreaterThanOrEqual(2 * (SAFETY_CALLS - 1));
          return;
        }
        expect(LimitExceededError.isInstance(outcome), String(outcome)).toBe(true);
        outcomes.limit += 1;
        const error = outcome as LimitExceededError;
        const configured = {
          model_calls: resolved.maxModelCalls,
          tool_calls: resolved.maxToolCalls,
          wall_clock: resolved.wallClockMs,
          // Nested calls only: the tools here make none.
          tool_depth: resolved.maxToolDepth,
        }[error.limitKind];
        expect(error.limit === configured, `${error.limit} vs ${String(configured)}`).toBe(true);
        expect(Number.isFinite(error.limit)).toBe(true);
        if (error.limitKind === 'model_calls') expect(modelCalls === error.limit).toBe(true);
      }),
      { numRuns: RUNS },
    );
    console.log(`options fuzz: ${JSON.stringify(outcomes)}`);
    expect(outcomes.invalid).toBeGreaterThan(0);
    expect(outcomes.limit).toBeGreaterThan(0);
  });
});
