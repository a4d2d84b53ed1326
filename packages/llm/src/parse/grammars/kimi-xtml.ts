import { parseJsonStrict } from '../extract-json-values.js';
import { memoizeForward } from '../forward-finder.js';
import { setOwn } from '../own-properties.js';
import { invalidArguments, statedCall } from '../read-stated-arguments.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { skipWhitespace } from '../text-scanning.js';
import { earlierHold, openerPrefixStart } from './opener-prefix.js';

const OPEN = '<|open|>';
const CLOSE = '<|close|>';
const SEP = '<|sep|>';
/** A marker at a position: `<|open|>` or `<|close|>`, a word, attributes, `<|sep|>` (spaces tolerated). */
const MARKER = /<\|(open|close)\|>\s*([a-z_]+)((?:\s+[A-Za-z_]+="[^"]*")*)\s*<\|sep\|>/y;
const ATTRIBUTE = /([A-Za-z_]+)="([^"]*)"/g;

interface Marker {
  readonly open: boolean;
  readonly word: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly end: number;
}

/**
 * @internal Kimi K3's XTML channels (source `xtml`), after vLLM's `kimi_k3_tool_parser.py`:
 * `<|open|>tools<|sep|>` holds `<|open|>call tool="NAME" index="N"<|sep|>` blocks of
 * `<|open|>argument key="K" type="T"<|sep|>VALUE<|close|>argument<|sep|>` typed arguments, closed by
 * `<|close|>call<|sep|>` and `<|close|>tools<|sep|>`. A `string` value is the raw text up to its
 * closing marker (markup inside it, `</think>` or a `<tool_call>`, is content); any other type is
 * JSON, and a value that is not is an invalid call. Attribute values are unescaped (`&quot;`,
 * `&amp;`). The `response` channel markers and `<|close|>message<|sep|>` are furniture (their
 * content is the narrative); the `index` attribute is never an id.
 */
export function createKimiXtmlGrammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const opens = context.finder(OPEN);
  const closes = context.finder(CLOSE);
  const nextMarkerStart = memoizeForward((from) => {
    const open = opens.next(from);
    const close = closes.next(from);
    return open < 0 ? close : close < 0 ? open : Math.min(open, close);
  });

  function markerAt(index: number): Marker | undefined {
    MARKER.lastIndex = index;
    const match = MARKER.exec(text);
    if (match === null) return undefined;
    const attributes: Record<string, string> = {};
    for (const attribute of (match[3] ?? '').matchAll(ATTRIBUTE)) {
      setOwn(attributes, attribute[1] ?? '', (attribute[2] ?? '').replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    }
    return { open: match[1] === 'open', word: match[2] ?? '', attributes, end: MARKER.lastIndex };
  }

  function findNext(from: number): Block | undefined {
    for (let index = nextMarkerStart.next(from); index >= 0; index = nextMarkerStart.next(index + 1)) {
      const marker = markerAt(index);
      if (marker === undefined) {
        if (mode === 'stream' && text.indexOf(SEP, index) < 0)
          return { kind: 'pending', start: index, end: text.length };
        continue;
      }
      if (marker.word === 'response' || (marker.word === 'message' && !marker.open)) {
        return { kind: 'furniture', start: index, end: marker.end };
      }
      if (marker.word === 'tools' && marker.open) return readTools(index, marker.end);
    }
    return undefined;
  }

  function readTools(start: number, bodyStart: number): Block {
    const calls: RawCall[] = [];
    let position = bodyStart;
    for (;;) {
      position = skipWhitespace(text, position);
      const marker = position < text.length ? markerAt(position) : undefined;
      if (marker === undefined) break;
      if (!marker.open && marker.word === 'tools') {
        if (calls.length > 0) return { kind: 'calls', start, end: marker.end, calls };
        return { kind: 'malformed', start, end: marker.end, bodyChars: countCharacters(text, bodyStart, position) };
      }
      if (!marker.open || marker.word !== 'call') break;
      const call = readCall(marker);
      if (call === undefined) break;
      calls.push(call.call);
      position = call.end;
    }
    if (mode === 'stream') return { kind: 'pending', start, end: text.length };
    // Batch: a section cut off after complete calls (no closer, nothing else) keeps those calls.
    if (calls.length > 0 && skipWhitespace(text, position) >= text.length) {
      return { kind: 'calls', start, end: text.length, calls };
    }
    return { kind: 'unterminated', start, end: bodyStart };
  }

  function readCall(opener: Marker): { call: RawCall; end: number } | undefined {
    const name = opener.attributes.tool ?? '';
    if (name === '') return undefined;
    const args: Record<string, unknown> = {};
    let invalid: string | undefined;
    let position = opener.end;
    for (;;) {
      position = skipWhitespace(text, position);
      const marker = markerAt(position);
      if (marker === undefined) return undefined;
      if (!marker.open && marker.word === 'call') {
        const call =
          invalid === undefined
            ? { name, arguments: args, source: 'xtml' as const }
            : statedCall(name, invalidArguments(text.slice(opener.end, position), invalid), 'xtml');
        return { call, end: marker.end };
      }
      if (!marker.open || marker.word !== 'argument') return undefined;
      const close = text.indexOf(`${CLOSE}argument${SEP}`, marker.end);
      if (close < 0) return undefined;
      const raw = text.slice(marker.end, close);
      const type = marker.attributes.type ?? 'string';
      const key = marker.attributes.key ?? '';
      if (type === 'string') setOwn(args, key, raw);
      else {
        const parsed = parseJsonStrict(raw.trim());
        if (parsed === undefined) invalid ??= 'a typed argument is not valid JSON';
        else setOwn(args, key, parsed.value);
      }
      position = close + CLOSE.length + 'argument'.length + SEP.length;
    }
  }

  function holdFrom(floor: number): number {
    // A marker whose attributes are still arriving: from its `<|open|>` / `<|close|>` to the end.
    const open = Math.max(text.lastIndexOf(OPEN), text.lastIndexOf(CLOSE));
    const marker = open >= floor && text.indexOf(SEP, open) < 0 ? open : -1;
    return earlierHold(marker, openerPrefixStart(text, floor, [OPEN, CLOSE]));
  }

  return { source: 'xtml', findNext, holdFrom };
}
