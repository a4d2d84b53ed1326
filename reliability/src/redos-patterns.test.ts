import { createValidator, defineTool, executeTool, ToolInputError } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.REDOS_RUNS ?? propertyRuns(2_000));

/**
 * Patterns known to backtrack exponentially (or with a high polynomial) on a backtracking engine,
 * each with the unit an attacker repeats, the suffix that makes the match fail at the very end,
 * and a string that matches.
 */
const catastrophic = [
  { pattern: '^(a+)+$', unit: 'a', bad: '!', good: 'aaaa' },
  { pattern: '^(a|a)*$', unit: 'a', bad: 'b', good: 'aa' },
  { pattern: '^(a|aa)+$', unit: 'a', bad: '!', good: 'aaa' },
  { pattern: '^(a*)*b$', unit: 'a', bad: 'c', good: 'aab' },
  { pattern: '^(\\d+)*$', unit: '1', bad: 'x', good: '123' },
  { pattern: '(x+x+)+y', unit: 'x', bad: '', good: 'xxy' },
  { pattern: '^(\\w+\\s?)*$', unit: 'ab ', bad: '!', good: 'ab cd' },
  { pattern: '^(([a-z])+.)+[A-Z]([a-z])+$', unit: 'aa', bad: '!', good: 'abXyz' },
  { pattern: '^(.*a){12}$', unit: 'a', bad: 'b', good: 'a'.repeat(12) },
  { pattern: '^(,?\\d+)+$', unit: '1,', bad: ',x', good: '1,2,3' },
  {
    pattern:
      '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
    unit: 'a',
    bad: '!',
    good: 'jo.doe@ex.com',
  },
  { pattern: '^(a+)+b?c$', unit: 'a', bad: 'x', good: 'aac' },
] as const;

const caseArb = fc.record({
  entry: fc.constantFrom(...catastrophic),
  repeat: fc.integer({ min: 16, max: 4_000 }),
  where: fc.constantFrom('pattern', 'patternProperties', 'nested'),
});

const schemas = new Map<string, Record<string, unknown>>();

/** One schema object per pattern and place, so each compiles once (validators are cached per schema). */
function schemaFor(pattern: string, where: 'pattern' | 'patternProperties' | 'nested') {
  const key = `${where}:${pattern}`;
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildSchema(pattern, where);
    schemas.set(key, schema);
  }
  return schema;
}

function buildSchema(pattern: string, where: 'pattern' | 'patternProperties' | 'nested'): Record<string, unknown> {
  if (where === 'patternProperties') {
    return { type: 'object', patternProperties: { [pattern]: { type: 'integer' } }, additionalProperties: false };
  }
  const leaf = { type: 'string', pattern };
  if (where === 'nested') return { type: 'object', properties: { list: { type: 'array', items: leaf } } };
  return { type: 'object', properties: { note: leaf } };
}

function argumentsFor(text: string, where: 'pattern' | 'patternProperties' | 'nested') {
  if (where === 'patternProperties') return { [text]: 1 };
  if (where === 'nested') return { list: [text] };
  return { note: text };
}

describe(`catastrophic schema patterns run in linear time (${RUNS} random cases)`, () => {
  it('gives the right answer on attack inputs and matching inputs, each validation bounded', () => {
    let rejected = 0;
    let accepted = 0;
    let slowest = 0;
    let totalMs = 0;
    let totalChars = 0;
    fc.assert(
      fc.property(caseArb, ({ entry, repeat, where }) => {
        const validator = createValidator(schemaFor(entry.pattern, where));
        const attack = entry.unit.repeat(repeat) + entry.bad;
        const started = performance.now();
        const result = validator.validate(argumentsFor(attack, where));
        const elapsed = performance.now() - started;
        slowest = Math.max(slowest, elapsed);
        totalMs += elapsed;
        totalChars += attack.length;
        const matches = validator.validate(argumentsFor(entry.good, where));
        // Unanchored `(x+x+)+y` fails without its `y`; every other attack fails on its suffix.
        expect(result.ok).toBe(false);
        expect(matches.ok).toBe(true);
        if (!result.ok) rejected += 1;
        if (matches.ok) accepted += 1;
      }),
      { numRuns: RUNS },
    );
    console.info(
      `redos fuzz: ${rejected} attacks rejected, ${accepted} matches accepted; slowest validation ${slowest.toFixed(2)} ms, ` +
        `${((totalMs * 1000) / totalChars).toFixed(3)} µs per attack character`,
    );
    expect(rejected).toBe(RUNS);
    expect(accepted).toBe(RUNS);
    // A backtracking engine takes minutes on the longest of these; the bound is generous on purpose.
    expect(slowest).toBeLessThan(2_000);
  });

  it('an MCP-style tool with a catastrophic pattern answers a repairable input error, not a stalled loop', async () => {
    const tool = defineTool({
      name: 'third_party',
      description: 'A tool whose schema came from elsewhere.',
      parameters: { type: 'object', properties: { note: { type: 'string', pattern: '^(a+)+$' } }, required: ['note'] },
      execute: (args) => `ran with ${String(args.note).length} characters`,
    });
    await expect(executeTool(tool, { note: `${'a'.repeat(32)}!` })).rejects.toBeInstanceOf(ToolInputError);
    const result = await executeTool(tool, { note: 'a'.repeat(32) });
    expect(JSON.stringify(result)).toContain('ran with 32 characters');
  });
});
