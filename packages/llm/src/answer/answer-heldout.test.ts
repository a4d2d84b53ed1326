import { readFileSync } from 'node:fs';
import type { JsonSchema } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { parseWithSchema } from './parse-with-schema.js';

interface HeldOutCase {
  readonly id: string;
  /** Each batch was measured once at first contact, then its misses fixed by general rules (README). */
  readonly batch: 1 | 2 | 3 | 4 | 5;
  /** `owner/repo@commit path test-name`: where the input and its expected outcome come from. */
  readonly source: string;
  readonly schema: JsonSchema;
  readonly text: string;
  readonly recover: boolean;
  readonly expected?: unknown;
}

/**
 * Messy final answers from suites the recovery was not tuned on (json_repair's string tests,
 * BAML's list, map, literal, union and class_2 tests, Vercel AI's fixJson tests; see
 * __fixtures__/README.md). Measured, not tuned against: the figure
 * is reported, and a case is never edited to pass.
 */
const heldOut = JSON.parse(
  readFileSync(new URL('./__fixtures__/answer-heldout.json', import.meta.url), 'utf8'),
) as HeldOutCase[];

function isDeepEqual(left: unknown, right: unknown): boolean {
  try {
    expect(left).toStrictEqual(right);
    return true;
  } catch {
    return false;
  }
}

/** Floors: every batch was fixed by general rules after its first measurement (README has both figures). */
const FLOOR = { 1: 0.95, 2: 0.65, 3: 0.95, 4: 0.95, 5: 0.8 } as const;

describe('schema-guided recovery: held-out answers', () => {
  const outcomes = heldOut.map((entry) => {
    const answer = parseWithSchema(entry.text, entry.schema);
    const correct = entry.recover
      ? answer !== undefined && isDeepEqual(answer.value, entry.expected)
      : answer === undefined;
    return { entry, answer, correct };
  });

  it('has about 30 sourced cases from suites outside the tuning corpus', () => {
    expect(heldOut.length).toBeGreaterThanOrEqual(30);
    for (const entry of heldOut) expect(entry.source).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40} \S+ \S/);
    expect(new Set(heldOut.map((entry) => entry.id)).size).toBe(heldOut.length);
  });

  for (const batch of [1, 2, 3, 4, 5] as const) {
    it(`reports how many batch ${batch} cases are answered as their source expects`, () => {
      const mine = outcomes.filter(({ entry }) => entry.batch === batch);
      const wrong = mine.filter(({ correct }) => !correct);
      const rate = (mine.length - wrong.length) / mine.length;
      console.info(
        `held-out batch ${batch}: ${mine.length - wrong.length}/${mine.length} (${(rate * 100).toFixed(1)} %)`,
        wrong.map(({ entry, answer }) => ({ id: entry.id, got: answer?.value })),
      );
      expect(mine.length).toBeGreaterThan(0);
      expect(rate).toBeGreaterThanOrEqual(FLOOR[batch]);
    });
  }
});
