import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall, toolEventViolations } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.NORMALIZE_RUNS ?? propertyRuns(1000));

type Kind = 'absent' | 'object' | 'other';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Strings that hold no JSON object at all (no `{` anywhere). */
const noBrace = fc.string({ maxLength: 30 }).filter((text) => !text.includes('{') && text.trim() !== '');
const objectArb = fc.oneof(
  fc.constant({}),
  fc.record({ note: fc.string({ maxLength: 8 }) }),
  fc.record({ note: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)) }),
  fc.record({ arguments: fc.record({ note: fc.string({ maxLength: 8 }) }) }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);
/** A native argument value, tagged with what it holds. */
const valueArb: fc.Arbitrary<{ kind: Kind; value: unknown }> = fc.oneof(
  fc.constantFrom(undefined, '', '  ', '\n').map((value) => ({ kind: 'absent' as const, value })),
  objectArb.map((value) => ({ kind: 'object' as const, value })),
  objectArb.map((value) => ({ kind: 'object' as const, value: JSON.stringify(value) })),
  objectArb.map((value) => ({ kind: 'object' as const, value: `\`\`\`json\n${JSON.stringify(value)}\n\`\`\`` })),
  fc
    .oneof(
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(objectArb, { maxLength: 3 }),
      fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
      noBrace,
      fc.constantFrom('oops', '5', 'null', 'true', '[]', '[{"note":"a"}]', '"text"', 'rm -rf /'),
      fc
        .jsonValue({ maxDepth: 2 })
        .filter((value) => !isPlainObject(value))
        .map((value) => JSON.stringify(value)),
    )
    .map((value) => ({ kind: 'other' as const, value })),
);

describe(`native argument values under normalize_then_return_tool_error (${RUNS} runs)`, () => {
  it('never execute a tool with {} unless the value was {} or absent, and answer every other value with a tool error', async () => {
    const counts = { executed: 0, emptyFromObject: 0, absent: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(valueArb, fc.boolean(), async ({ kind, value }, sideEffects) => {
        const executed: unknown[] = [];
        const opt = defineTool({
          name: 'opt',
          description: 'Optional note.',
          parameters: { type: 'object', properties: { note: { type: 'string' } } },
          ...(sideEffects ? { policy: ToolPolicy.classified().withSideEffects({ network: true }) } : {}),
          execute: (args) => {
            executed.push(args);
            return 'ran';
          },
        });
        const call = { ...scriptedToolCall('opt', value, 'c1'), arguments: value };
        const model = new ScriptedModel({ steps: [{ toolCalls: [call] }, { content: 'done' }] });
        const run = await new AgentHarness({
          model,
          tools: [opt],
          policy: { invalidArgs: 'normalize_then_return_tool_error' },
        }).invoke({}, [{ role: 'user', content: 'go' }]);
        expect(run.outcome).toBe('final');
        expect(toolEventViolations(run.events)).toEqual([]);
        const answer = run.messages.find((message) => message.role === 'tool');
        expect(answer).toMatchObject({ toolCallId: 'c1' });
        if (kind === 'other') {
          counts.refused += 1;
          expect(executed, `ran with ${JSON.stringify(executed)} from ${JSON.stringify(value)}`).toEqual([]);
          expect(answer).toMatchObject({ isError: true });
          return;
        }
        for (const args of executed) {
          expect(isPlainObject(args)).toBe(true);
          if (Object.keys(args as object).length === 0) {
            if (kind === 'absent') counts.absent += 1;
            else counts.emptyFromObject += 1;
          }
        }
        if (kind === 'absent') expect(executed).toEqual([{}]);
        counts.executed += executed.length;
      }),
      { numRuns: RUNS },
    );
    console.log(`normalize fuzz: ${JSON.stringify(counts)}`);
    expect(counts.refused).toBeGreaterThan(0);
  });
});
