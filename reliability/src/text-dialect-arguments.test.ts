import { AgentHarness } from '@tiny/harness';
import { eventsOfType, ScriptedModel } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// HARDEN item 1, fuzzed: text-dialect calls with random argument values run only with what the text
// stated; `{}` only when the text stated no arguments (absent, blank, or an empty object).

const RUNS = Number(process.env.LOOP_RUNS ?? propertyRuns(300));
const dialects = ['xml', 'pformat', 'python', 'typescript'] as const;
const keys = ['arguments', 'parameters', 'args', 'params', 'input'] as const;

/** A stated argument value: absent, any JSON value, a string (JSON-ish or not), or JSON text of a value. */
const statedArb = fc.oneof(
  fc.constant<{ kind: 'absent' }>({ kind: 'absent' }),
  fc.record({ kind: fc.constant('value' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({
    kind: fc.constant('value' as const),
    value: fc.oneof(
      fc.string({ maxLength: 24 }),
      fc.constantFrom(
        '{"note": }',
        '{"note": "cut',
        '{,}',
        '{',
        '{{',
        '{ {',
        '{{}}',
        '[]',
        'null',
        'oops',
        'rm -rf',
        '{note: "x",}',
        '{}',
        ' ',
      ),
    ),
  }),
  fc.record({ kind: fc.constant('text' as const), value: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) }),
);

/**
 * How the call is written: the `<tool_call>` tag, Mistral's marker, a whole-response object, or a
 * Harmony message whose payload is the argument text itself.
 */
const spellingArb = fc.constantFrom('tag', 'mistral', 'bare', 'tag-list', 'harmony');

function statesNothing(stated: { kind: string; value?: unknown }): boolean {
  if (stated.kind === 'absent') return true;
  const value = stated.value;
  const isEmptyObject = (v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  if (isEmptyObject(value)) return true;
  if (typeof value !== 'string') return false;
  // Blank, or an object written with nothing in it (`{}`, `{,}`, `{{}}`). A cut or garbled opening
  // (`{`, `{{`) is not one: repair refuses it rather than close it into `{}`.
  if (/^\s*(\{[\s,]*\}|\{\{[\s,]*\}\})?\s*$/.test(value)) return true;
  try {
    const parsed: unknown = JSON.parse(value);
    return isEmptyObject(parsed) || (typeof parsed === 'string' && statesNothing({ kind: 'value', value: parsed }));
  } catch {
    return false;
  }
}

describe(`text-dialect arguments are never defaulted to {} (${RUNS} runs)`, () => {
  it('a call runs with {} only when its text stated no arguments', async () => {
    let invalidSeen = 0;
    let emptyRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...dialects),
        statedArb,
        fc.constantFrom(...keys),
        spellingArb,
        async (dialect, stated, key, spelling) => {
          const executed: unknown[] = [];
          const opt = defineTool({
            name: 'opt',
            description: 'Writes a note.',
            parameters: Type.Object({ note: Type.Optional(Type.Unknown()) }),
            policy: ToolPolicy.classified().withSideEffects({ writesFiles: true }),
            execute: (args) => {
              executed.push(args);
              return 'ok';
            },
          });
          const call: Record<string, unknown> = { name: 'opt' };
          if (stated.kind !== 'absent') call[key] = stated.value;
          const json = JSON.stringify(call);
          const payload =
            stated.kind === 'absent'
              ? ''
              : typeof stated.value === 'string'
                ? stated.value
                : JSON.stringify(stated.value);
          const content =
            spelling === 'harmony'
              ? `<|channel|>commentary to=functions.opt<|message|>${payload}<|call|>`
              : spelling === 'tag'
                ? `On it.\n<tool_call>${json}</tool_call>`
                : spelling === 'tag-list'
                  ? `<tool_call>[${json}]</tool_call>`
                  : spelling === 'mistral'
                    ? `[TOOL_CALLS][${json}]`
                    : json;
          const model = new ScriptedModel({ steps: [{ content }, { content: 'done' }] });
          const run = await new AgentHarness({ model, tools: [opt], policy: { toolDialect: dialect } }).invoke({}, [
            { role: 'user', content: 'go' },
          ]);
          invalidSeen += eventsOfType(run.events, 'invalid_tool_args').length;
          for (const args of executed) {
            const empty = typeof args === 'object' && args !== null && Object.keys(args).length === 0;
            if (empty) {
              emptyRuns += 1;
              expect(statesNothing(stated), `ran with {} from ${content}`).toBe(true);
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(invalidSeen).toBeGreaterThan(0);
    expect(emptyRuns).toBeGreaterThan(0);
  });
});
