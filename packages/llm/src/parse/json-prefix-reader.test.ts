import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_BROKEN, JSON_COMPLETE, JSON_GOING, readJsonChar, startJsonPrefix } from './json-prefix-reader.js';
import { scanJsonValue } from './scan-json-value.js';

/** Reads `text` (opening with `{` or `[`) a character at a time, as the whole-response guard does. */
function readAll(text: string) {
  const reader = startJsonPrefix(0);
  for (let at = 0; at < text.length; at++) {
    const outcome = readJsonChar(reader, text.charCodeAt(at), at);
    if (outcome === JSON_COMPLETE) return { kind: 'complete', end: at + 1 } as const;
    if (outcome === JSON_BROKEN) return { kind: 'invalid', at, completed: reader.closed } as const;
    expect(outcome).toBe(JSON_GOING);
  }
  return { kind: 'incomplete', completed: reader.closed } as const;
}

/** Tokens near JSON's edges: numbers and literals cut short or run on, escapes, stray characters. */
const pieces = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  ' ',
  '\n',
  '"a"',
  '"k":',
  '"\\u0061"',
  '"\\x"',
  '"\\u00g1"',
  '"',
  '0',
  '01',
  '-',
  '-0',
  '12',
  '1.',
  '1.5',
  '.5',
  '1e',
  '1e+',
  '1E-7',
  '2e5x',
  '+1',
  'true',
  'tru',
  'truex',
  'false',
  'nul',
  'null',
  'NaN',
  'x',
];

describe('the JSON prefix reader', () => {
  it('completes, breaks and lists closed containers exactly where scanJsonValue does (what JSON.parse accepts)', () => {
    fc.assert(
      fc.property(fc.constantFrom('{', '['), fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (open, parts) => {
        const text = open + parts.join('');
        const scan = scanJsonValue(text, 0);
        const read = readAll(text);
        if (scan.kind === 'complete') {
          expect(read).toEqual({ kind: 'complete', end: scan.end });
          expect(() => JSON.parse(text.slice(0, scan.end))).not.toThrow();
        } else if (scan.kind === 'invalid') {
          expect(read).toEqual({ kind: 'invalid', at: scan.at, completed: scan.completed });
        } else {
          expect(read).toEqual({ kind: 'incomplete', completed: scan.completed });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['[01]', 2],
    ['[tru,', 4],
    ['{"x": 1.}', 8],
    ['{"x": -a', 7],
    ['[1e+]', 4],
    ['[nulx', 4],
  ])('%j breaks at %i, as the batch reading does', (text, at) => {
    expect(readAll(text)).toMatchObject({ kind: 'invalid', at });
    expect(scanJsonValue(text, 0)).toMatchObject({ kind: 'invalid', at });
  });
});
