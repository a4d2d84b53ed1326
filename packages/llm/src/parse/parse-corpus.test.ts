import { describe, expect, it } from 'vitest';
import { type CorpusCase, loadCorpus, toolsOf } from './__fixtures__/load-corpus.js';
import { compareStream } from './__fixtures__/stream-check.js';
import { parseToolCalls } from './parse-tool-calls.js';
import type { ParsedCall } from './parse-types.js';

const corpus = loadCorpus();

function comparable(calls: readonly ParsedCall[], expected: CorpusCase['expected']['calls']): unknown[] {
  return calls.map((call, index) => {
    const wanted = expected[index];
    return {
      name: call.name,
      arguments: call.arguments,
      ...(wanted?.source === undefined ? {} : { source: call.source }),
      ...(call.invalid === undefined ? {} : { invalid: true }),
    };
  });
}

function chunks(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces.length === 0 ? [''] : pieces;
}

describe('the fixture corpus', () => {
  it('holds at least 200 distinct cases across every family', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(new Set(corpus.map((entry) => entry.id)).size).toBe(corpus.length);
    const families = new Set(corpus.map((entry) => entry.family));
    for (const family of [
      'hermes',
      'invoke-xml',
      'sentinel',
      'harmony',
      'mistral',
      'glm',
      'bare-json',
      'seed-formats',
      'adversarial',
    ]) {
      expect(families).toContain(family);
    }
  });

  describe.each(corpus.map((entry) => [entry.id, entry] as const))('%s', (_id, entry) => {
    const tools = toolsOf(entry);
    const result = parseToolCalls(entry.input, { tools });

    it('yields the expected calls, narrative and diagnostics', () => {
      expect(comparable(result.calls, entry.expected.calls)).toEqual(entry.expected.calls);
      if (entry.expected.text !== undefined) expect(result.text).toBe(entry.expected.text);
      if (entry.expected.diagnostics !== undefined) {
        expect(result.diagnostics.map((diagnostic) => diagnostic.kind)).toEqual(entry.expected.diagnostics);
      }
    });

    it('streams to the same calls and text for several splits', () => {
      // Bare JSON, whole-response pythonic lists and GLM lines need the whole response; a stream never reads them.
      const withoutWhole = parseToolCalls(entry.input, { tools, allowBareJson: false });
      const wholeResponseOnly =
        result.calls.some((call) => call.source === 'glm' || call.source === 'bare_json') ||
        withoutWhole.calls.length !== result.calls.length ||
        withoutWhole.text !== result.text;
      for (const fragments of [[entry.input], chunks(entry.input, 1), chunks(entry.input, 3), chunks(entry.input, 7)]) {
        const streamed = compareStream(fragments, tools);
        expect(streamed.streamedCalls).toEqual(streamed.batchCalls);
        expect(streamed.streamedText).toBe(streamed.batchText);
        expect(streamed.alwaysPrefix).toBe(true);
        if (!wholeResponseOnly) {
          expect(streamed.streamedCalls).toEqual(result.calls);
          expect(streamed.streamedText).toBe(result.text);
        }
      }
    });
  });
});
