import { readFileSync } from 'node:fs';
import type { JsonSchema } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { parseWithSchema } from './parse-with-schema.js';

interface CorpusCase {
  readonly id: string;
  /** `owner/repo@commit path test-name`: where the input and its expected outcome come from. */
  readonly source: string;
  readonly schema: JsonSchema;
  readonly text: string;
  readonly recover: boolean;
  readonly expected?: unknown;
  /**
   * `lenient`: the source expects a cross-type coercion (a number from `12,111`, strings from
   * numbers). Such a case is recovered only with `coerce: 'lenient'`; by default it is refused.
   */
  readonly coerce?: 'lenient';
}

const corpus = JSON.parse(
  readFileSync(new URL('./__fixtures__/answer-corpus.json', import.meta.url), 'utf8'),
) as CorpusCase[];

const outcomes = corpus.map((entry) => {
  const answer = parseWithSchema(entry.text, entry.schema, { coerce: entry.coerce ?? 'off' });
  const correct = entry.recover
    ? answer !== undefined && isDeepEqual(answer.value, entry.expected)
    : answer === undefined;
  return { entry, answer, correct };
});

function isDeepEqual(left: unknown, right: unknown): boolean {
  try {
    expect(left).toStrictEqual(right);
    return true;
  } catch {
    return false;
  }
}

describe('schema-guided recovery: corpus from BAML, LangChain and instructor test suites', () => {
  it('has at least 60 sourced cases, some of which must not be recovered', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    expect(corpus.filter((entry) => !entry.recover).length).toBeGreaterThanOrEqual(8);
    for (const entry of corpus) expect(entry.source).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40} \S+ \S/);
    expect(new Set(corpus.map((entry) => entry.id)).size).toBe(corpus.length);
  });

  it('recovers at least 95 % of the answers that should be recovered, with the expected value', () => {
    const recoverable = outcomes.filter(({ entry }) => entry.recover);
    const recovered = recoverable.filter(({ correct }) => correct);
    const rate = recovered.length / recoverable.length;
    const missed = recoverable
      .filter(({ correct }) => !correct)
      .map(({ entry, answer }) => ({ id: entry.id, got: answer?.value }));
    console.info(
      `schema-guided recovery: ${recovered.length}/${recoverable.length} (${(rate * 100).toFixed(1)} %)`,
      missed,
    );
    expect(rate).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses by default every answer whose source expects a cross-type coercion', () => {
    const coerced = corpus.filter((entry) => entry.coerce === 'lenient');
    expect(coerced.length).toBeGreaterThanOrEqual(5);
    const recovered = coerced.filter((entry) => parseWithSchema(entry.text, entry.schema) !== undefined);
    expect(recovered.map((entry) => entry.id)).toEqual([]);
  });

  it('returns undefined for every answer that must not be recovered', () => {
    const wrong = outcomes
      .filter(({ entry, correct }) => !entry.recover && !correct)
      .map(({ entry, answer }) => [entry.id, answer]);
    expect(wrong).toEqual([]);
  });

  it('lists a repair for every recovered answer that was not valid JSON for its schema as written', () => {
    for (const { entry, answer } of outcomes) {
      if (answer === undefined) continue;
      let asWritten: unknown;
      try {
        asWritten = JSON.parse(entry.text);
      } catch {
        asWritten = undefined;
      }
      if (asWritten === undefined || !isDeepEqual(asWritten, answer.value)) {
        expect(answer.repairs.length, entry.id).toBeGreaterThan(0);
      }
    }
  });
});
