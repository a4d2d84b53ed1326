import { AgentHarness, InMemoryToolEffectLedger, LimitExceededError } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall, toolEventViolations } from '@tiny/harness/testkit';
import { type LanguageModelV1Request, ModelCallError } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const RUNS = Number(process.env.DEADLINE_RUNS ?? 120);
const never = () => new Promise<never>(() => undefined);
const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

type Stall =
  | 'model_ignores_signal'
  | 'model_honours_signal'
  | 'tool_ignores_signal'
  | 'tool_honours_signal'
  | 'concurrent_tools'
  | 'retry_backoff';

function world(stall: Stall) {
  const tool = (name: string, ignores: boolean) =>
    defineTool({
      name,
      description: '',
      parameters: { type: 'object' },
      isConcurrencySafe: () => true,
      execute: (_args, context) => (ignores ? wait(5_000) : wait(5_000, context.signal)).then(() => 'late'),
    });
  const tools = [tool('ignores', true), tool('honours', false)];
  const calls = {
    tool_ignores_signal: [scriptedToolCall('ignores', {})],
    tool_honours_signal: [scriptedToolCall('honours', {})],
    concurrent_tools: [
      scriptedToolCall('ignores', {}),
      scriptedToolCall('honours', {}),
      scriptedToolCall('ignores', {}),
    ],
  } as Record<string, ReturnType<typeof scriptedToolCall>[]>;
  const step = async (request: LanguageModelV1Request) => {
    if (stall === 'model_ignores_signal') return never();
    if (stall === 'model_honours_signal') return wait(5_000, request.abortSignal).then(() => ({ content: 'late' }));
    if (stall === 'retry_backoff') throw new ModelCallError({ message: 'overloaded', isRetryable: true });
    return { toolCalls: calls[stall] ?? [] };
  };
  return { tools, model: new ScriptedModel({ steps: [step], repeatLast: true, recordRequests: false }) };
}

describe(`wall-clock deadline with a call in flight (${RUNS} runs)`, () => {
  it('ends every run with a wall_clock LimitExceededError shortly after the deadline, every started call ended', async () => {
    const overshoots: number[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: 60 }),
        fc.constantFrom<Stall>(
          'model_ignores_signal',
          'model_honours_signal',
          'tool_ignores_signal',
          'tool_honours_signal',
          'concurrent_tools',
          'retry_backoff',
        ),
        fc.boolean(),
        async (wallClockMs, stall, streaming) => {
          const { model, tools } = world(stall);
          const ledger = new InMemoryToolEffectLedger();
          const harness = new AgentHarness({
            model,
            tools,
            ledger,
            limits: { wallClockMs, retryDelayMs: 10_000, maxRetriesPerCall: 5 },
          });
          const events: { type: string; callId?: string }[] = [];
          const started = Date.now();
          const options = { onEvent: (event: { type: string }) => events.push(event) };
          const context = { runId: 'r' };
          const user = [{ role: 'user' as const, content: 'go' }];
          const error = await (streaming
            ? harness.stream(context, user, options).result
            : harness.invoke(context, user, options)
          ).then(
            () => undefined,
            (thrown: unknown) => thrown,
          );
          const elapsed = Date.now() - started;
          expect(LimitExceededError.isInstance(error), String(error)).toBe(true);
          expect((error as LimitExceededError).limitKind).toBe('wall_clock');
          expect(elapsed).toBeGreaterThanOrEqual(wallClockMs - 1);
          // Far below the 5 s the stalled call would take (or the 10 s retry backoff).
          expect(elapsed).toBeLessThan(wallClockMs + 1_000);
          overshoots.push(elapsed - wallClockMs);
          expect(events.filter((event) => event.type === 'limit_reached')).toHaveLength(1);
          expect(events.at(-1)?.type).toBe('run_failed');
          expect(toolEventViolations(events as never)).toEqual([]);
          // Rows of calls cut off stay `started` (the effect is unknown); no other row is left open.
          const cutOff = new Set(events.filter((event) => event.type === 'tool_failed').map((event) => event.callId));
          for (const row of await ledger.unresolved('r')) expect(cutOff.has(row.callId)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
    const sorted = [...overshoots].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    console.log(
      `deadline fuzz: ${sorted.length} runs, overshoot past wallClockMs median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted.at(-1)} ms`,
    );
  });
});
