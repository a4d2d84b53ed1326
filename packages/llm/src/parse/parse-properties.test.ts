import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { grammarText, splitAt, utf16Text } from './__fixtures__/grammar-fragment-arbitrary.js';
import { compareStream } from './__fixtures__/stream-check.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { normalizeNarrative } from './normalize-narrative.js';
import { parseToolCalls } from './parse-tool-calls.js';

const tools: ToolSchema[] = [
  {
    name: 'lookup',
    description: 'Look something up.',
    parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
  },
  {
    name: 'weather',
    description: 'Weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    format: { type: 'xml' },
  },
  {
    name: 'search',
    description: 'Search.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
    format: { type: 'ptype', parameters: ['query', 'limit'] },
  },
];

const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), utf16Text, grammarText);

describe('parseToolCalls never throws', () => {
  it('on any string, with and without tools', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, withTools) => {
        const result = parseToolCalls(text, withTools ? { tools } : {});
        expect(typeof result.text).toBe('string');
        for (const call of result.calls) {
          expect(call.name).not.toBe('');
          expect(typeof call.arguments).toBe(call.invalid === undefined ? 'object' : 'string');
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('returns a narrative that is never longer than the input', () => {
    fc.assert(
      fc.property(grammarText, (text) => {
        expect(parseToolCalls(text).text.length).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the stream scrubber', () => {
  it('never throws on any fragments', () => {
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 6 }), (fragments) => {
        const scrubber = createStreamScrubber({ tools });
        for (const fragment of fragments) scrubber.feed(fragment);
        scrubber.flush();
      }),
      { numRuns: 500 },
    );
  });

  it('releases the same calls and exactly the same narrative as a complete parse, for any split', () => {
    fc.assert(
      fc.property(grammarText, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (text, cuts, withTools) => {
        const result = compareStream(splitAt(text, cuts), withTools ? tools : undefined);
        expect(result.streamedCalls).toEqual(result.batchCalls);
        expect(result.streamedText).toBe(result.batchText);
        expect(result.alwaysPrefix).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('holds every partial opener when fed one character at a time', () => {
    fc.assert(
      fc.property(grammarText, (text) => {
        const result = compareStream([...text]);
        expect(result.alwaysPrefix).toBe(true);
        expect(result.streamedCalls).toEqual(result.batchCalls);
        expect(normalizeNarrative(result.streamedText)).toBe(normalizeNarrative(result.batchText));
      }),
      { numRuns: 300 },
    );
  });

  it('matches the public parser when no bare JSON or GLM line is involved', () => {
    fc.assert(
      fc.property(grammarText, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const full = parseToolCalls(text, { allowBareJson: false });
        fc.pre(full.calls.every((call) => call.source !== 'glm'));
        // No bare JSON involved: the text reads the same with bare JSON allowed (the scrubber allows it).
        fc.pre(parseToolCalls(text).calls.length === full.calls.length);
        const result = compareStream(splitAt(text, cuts));
        expect(result.streamedCalls).toEqual(full.calls);
        expect(result.streamedText).toBe(full.text);
      }),
      { numRuns: 500 },
    );
  });
});

describe('normalizeNarrative', () => {
  it('is idempotent and ignores whitespace added around line breaks and at the ends', () => {
    fc.assert(
      fc.property(grammarText, fc.constantFrom(' ', '\t', '  '), (text, pad) => {
        const once = normalizeNarrative(text);
        expect(normalizeNarrative(once)).toBe(once);
        const padded = `${pad}${text.split('\n').join(`${pad}\n${pad}`)}${pad}`;
        expect(normalizeNarrative(padded)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps words and single spaces, collapses line-break runs', () => {
    expect(normalizeNarrative('  a  b \n\n  c\t\n d  ')).toBe('a  b\nc\nd');
    expect(normalizeNarrative('before  \n  after')).toBe(normalizeNarrative('before\nafter'));
    expect(normalizeNarrative('x\r\n\r\ny')).toBe('x\ny');
    expect(normalizeNarrative('')).toBe('');
  });
});
