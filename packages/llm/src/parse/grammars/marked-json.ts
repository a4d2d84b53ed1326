import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import { readCalls } from '../read-call-object.js';
import { readStatedArguments, statedCall } from '../read-stated-arguments.js';
import type { ScanContext } from '../scan-context.js';
import { scanJsonValue } from '../scan-json-value.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { endsInsidePrefix, isBlank, skipWhitespace } from '../text-scanning.js';

/** FireFunction v2's call marker, a plain word (the only opener of any grammar without `<` or `[`). */
const FUNCTOOLS = 'functools';

interface Marker {
  readonly open: string;
  readonly close: string | undefined;
  /** Entries are `{"NAME": {args}}` (Apertus) rather than `{"name": …, "arguments": …}`. */
  readonly nameAsKey: boolean;
}

/**
 * A JSON array of calls right after a model's call token (source `tagged_json`):
 * - FireFunction v2: ` functools[{"name": …, "arguments": {…}}, …]` (no closer);
 * - Apertus: `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>`, the function name as the key.
 */
const markers: readonly Marker[] = [
  { open: FUNCTOOLS, close: undefined, nameAsKey: false },
  { open: '<|tools_prefix|>', close: '<|tools_suffix|>', nameAsKey: true },
];

/** @internal The FireFunction v2 and Apertus call arrays, as a scan grammar. */
export function createMarkedJsonGrammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const finders = markers.map((marker) => context.finder(marker.open));

  function findNext(from: number): Block | undefined {
    let cursor = from;
    for (;;) {
      let start = -1;
      let which: Marker | undefined;
      finders.forEach((finder, index) => {
        const at = finder.next(cursor);
        if (at >= 0 && (start < 0 || at < start)) {
          start = at;
          which = markers[index];
        }
      });
      if (start < 0 || which === undefined) return undefined;
      const block = blockAt(start, which);
      if (block !== undefined) return block;
      cursor = start + 1;
    }
  }

  function blockAt(start: number, marker: Marker): Block | undefined {
    const bodyStart = start + marker.open.length;
    const at = skipWhitespace(text, bodyStart);
    if (at >= text.length) return mode === 'stream' ? { kind: 'pending', start, end: text.length } : undefined;
    // FireFunction's marker is a plain word: only `functools[` counts.
    if (text.charCodeAt(at) !== 91) return marker.close === undefined ? undefined : unreadable(start, bodyStart);
    const scan = scanJsonValue(text, at);
    if (scan.kind === 'incomplete') {
      if (mode === 'stream') return { kind: 'pending', start, end: text.length };
      return { kind: 'unterminated', start, end: bodyStart };
    }
    if (scan.kind !== 'complete') return marker.close === undefined ? undefined : unreadable(start, bodyStart);
    const parsed = parseJsonStrict(text.slice(at, scan.end));
    const calls = parsed === undefined ? [] : readEntries(parsed.value, marker);
    let end = scan.end;
    if (marker.close !== undefined) {
      const after = skipWhitespace(text, end);
      if (text.startsWith(marker.close, after)) end = after + marker.close.length;
      else if (mode === 'stream' && (after >= text.length || endsInsidePrefix(text, after, marker.close))) {
        return { kind: 'pending', start, end: text.length };
      }
    }
    if (calls.length === 0) {
      if (marker.close === undefined) return undefined;
      return { kind: 'malformed', start, end, bodyChars: countCharacters(text, bodyStart, end) };
    }
    return { kind: 'calls', start, end, calls };
  }

  function unreadable(start: number, bodyStart: number): Block {
    return { kind: 'unterminated', start, end: bodyStart };
  }

  function readEntries(value: unknown, marker: Marker): RawCall[] {
    if (!Array.isArray(value)) return [];
    if (!marker.nameAsKey) return readCalls(value, true, context.knowledge.isKnown, 'tagged_json');
    const calls: RawCall[] = [];
    for (const entry of value) {
      if (!isRecord(entry)) continue;
      const keys = Object.keys(entry);
      const [name] = keys;
      if (keys.length !== 1 || name === undefined || name.trim() === '') continue;
      calls.push(statedCall(name.trim(), readStatedArguments(entry[name]), 'tagged_json'));
    }
    return calls;
  }

  function holdFrom(floor: number): number {
    for (let index = Math.max(floor, text.length - 16); index < text.length; index++) {
      for (const marker of markers) if (endsInsidePrefix(text, index, marker.open)) return index;
    }
    return -1;
  }

  return { source: 'tagged_json', findNext, holdFrom };
}

/**
 * @internal Where this grammar holds a stream text that has no `[` and no `<` (so no block of its
 * own can complete in it): from a last `functools` followed by nothing but whitespace (its array
 * may still come: the block is pending), else from a last word part-way through `functools` (as
 * `holdFrom`); -1 when nothing is held. The stream scrubber uses it to release such text
 * without a scan.
 */
export function functoolsHoldStart(text: string): number {
  const last = text.includes(FUNCTOOLS) ? text.lastIndexOf(FUNCTOOLS) : -1;
  if (last >= 0 && isBlank(text, last + FUNCTOOLS.length, text.length)) return last;
  for (let index = Math.max(0, text.length - FUNCTOOLS.length); index < text.length; index++) {
    if (endsInsidePrefix(text, index, FUNCTOOLS)) return index;
  }
  return -1;
}
