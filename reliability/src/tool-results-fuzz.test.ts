import { AgentHarness, InMemoryToolEffectLedger } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall, toolEventViolations } from '@tiny/harness/testkit';
import { defineTool, type JsonValue, type ToolOutput, ToolResult } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.RESULT_RUNS ?? propertyRuns(300));

type Poison = 'cycle' | 'bigint' | 'deep';

/** Puts a value JSON.stringify cannot handle somewhere inside `host` (along `path`). */
function poisoned(host: unknown, poison: Poison, path: readonly number[], depth: number): unknown {
  const bad = (): unknown => {
    if (poison === 'bigint') return BigInt(depth);
    if (poison === 'deep') {
      let value: unknown = 'bottom';
      for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { d: value } : [value];
      return value;
    }
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.again = { back: cycle };
    return cycle;
  };
  const root: unknown = typeof host === 'object' && host !== null ? structuredClone(host) : { value: host };
  let at = root as Record<string, unknown> | unknown[];
  for (const step of path) {
    const keys = Object.keys(at);
    const key = keys.length === 0 ? undefined : keys[step % keys.length];
    const next = key === undefined ? undefined : (at as Record<string, unknown>)[key];
    if (key === undefined || typeof next !== 'object' || next === null) break;
    at = next as Record<string, unknown>;
  }
  if (Array.isArray(at)) at.push(bad());
  else at.poison = bad();
  return root;
}

const wrapArb = fc.constantFrom('plain', 'json', 'followUp', 'array') as fc.Arbitrary<
  'plain' | 'json' | 'followUp' | 'array'
>;
const policyArb = fc.constantFrom(
  { kind: 'fail' as const },
  { kind: 'return_error' as const },
  { kind: 'message' as const, message: 'tool failed' },
);

describe(`tool results that cannot be serialised (${RUNS} runs)`, () => {
  it('always become a tool error the model reads and a failed ledger row, under every tool-error policy', async () => {
    const seen = { cycle: 0, bigint: 0, deep: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constantFrom('cycle', 'bigint', 'deep') as fc.Arbitrary<Poison>,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 20_000, max: 100_000 })),
        wrapArb,
        policyArb,
        fc.boolean(),
        async (host, poison, path, depth, wrap, toolErrors, streaming) => {
          // A shallow "deep" value serialises fine: only count the ones that really cannot.
          const value = poisoned(host, poison, path, depth);
          let serialisable = true;
          try {
            JSON.stringify(value);
          } catch {
            serialisable = false;
          }
          const output = (): ToolOutput => {
            if (wrap === 'json') return ToolResult.json(value as JsonValue);
            if (wrap === 'followUp')
              return ToolResult.success('ok').withFollowUp({ type: 'json', data: value as JsonValue });
            if (wrap === 'array') return [value] as unknown as ToolOutput;
            return value as ToolOutput;
          };
          const ledger = new InMemoryToolEffectLedger();
          const tool = defineTool({ name: 'odd', description: '', parameters: { type: 'object' }, execute: output });
          const model = new ScriptedModel({
            steps: [{ toolCalls: [scriptedToolCall('odd', {}, 'o1')] }, { content: 'done' }],
          });
          const harness = new AgentHarness({ model, tools: [tool], ledger, policy: { toolErrors } });
          const run = streaming
            ? await harness.stream({ runId: 'r' }, [{ role: 'user', content: 'go' }]).result
            : await harness.invoke({ runId: 'r' }, [{ role: 'user', content: 'go' }]);
          expect(run.outcome).toBe('final');
          expect(toolEventViolations(run.events)).toEqual([]);
          const answer = run.messages.find((message) => message.role === 'tool');
          if (serialisable) {
            expect(ledger.rows('r').map((row) => row.status)).toEqual(['completed']);
            return;
          }
          seen[poison] += 1;
          expect(answer).toMatchObject({ toolCallId: 'o1', isError: true });
          expect(JSON.stringify(answer)).toContain('cannot be serialised');
          expect(ledger.rows('r').map((row) => row.status)).toEqual(['failed']);
          // The transcript stays serialisable, so the run can be checkpointed and resumed.
          expect(() => JSON.stringify(run.messages)).not.toThrow();
        },
      ),
      { numRuns: RUNS },
    );
    console.log(`tool-result fuzz: unserialisable results by kind ${JSON.stringify(seen)}`);
    expect(seen.cycle + seen.bigint + seen.deep).toBeGreaterThan(RUNS / 2);
  });
});
