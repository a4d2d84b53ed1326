import { recoverLeadingObject } from '../../repair/recover-leading-object.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import { readCalls } from '../read-call-object.js';
import type { ScanContext } from '../scan-context.js';
import { scanJsonValue } from '../scan-json-value.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { endsInsidePrefix, skipWhitespace } from '../text-scanning.js';
import { openerPrefixStart } from './opener-prefix.js';

const MARKER = '[TOOL_CALLS]';
const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';

/**
 * @internal Mistral `[TOOL_CALLS]` written as text (source `mistral`). v3: a JSON array (or object)
 * of call objects right after the marker; v11 and later: `NAME[ARGS]{...}`, repeatable, with an
 * optional `[CALL_ID]id` before `[ARGS]` (detokenised without special tokens: `NAME{...}`). Junk
 * between the marker and a v3 array is skipped. Arguments cut off before their object closes make
 * an invalid call carrying the raw text. A marker with nothing decodable after it is a malformed
 * block (only the marker is removed); in a stream it stays pending until the end decides.
 */
export function createMistralGrammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const markers = context.finder(MARKER);
  const argsMarkers = context.finder(ARGS);
  const pending = (start: number): Block => ({ kind: 'pending', start, end: text.length });

  function findNext(from: number): Block | undefined {
    const start = markers.next(from);
    if (start < 0) return undefined;
    const bodyStart = start + MARKER.length;
    const first = skipWhitespace(text, bodyStart);
    if (first >= text.length && mode === 'stream') return pending(start);
    const code = text.charCodeAt(first);
    if (code === 91 || code === 123) {
      const block = arrayForm(start, first);
      if (block !== undefined) return block;
    }
    const named = nameForm(start, first);
    if (named.kind !== 'malformed') return named;
    // Pre-v11 models sometimes write junk between the marker and the JSON array.
    const json = jsonAfterJunk(bodyStart);
    if (json >= 0) {
      const block = arrayForm(start, json);
      if (block !== undefined) return block;
    }
    return mode === 'stream' ? pending(start) : named;
  }

  /** The first `[{` or `{"` (whitespace allowed inside) after `from` and before the next marker, or -1. */
  function jsonAfterJunk(from: number): number {
    const next = markers.next(from);
    const limit = next < 0 ? text.length : next;
    for (let index = from; index < limit; index++) {
      const code = text.charCodeAt(index);
      if (code !== 91 && code !== 123) continue;
      const after = skipWhitespace(text, index + 1);
      if (after < limit && text.charCodeAt(after) === (code === 91 ? 123 : 34)) return index;
    }
    return -1;
  }

  function arrayForm(start: number, at: number): Block | undefined {
    const scan = scanJsonValue(text, at);
    if (scan.kind === 'complete') {
      const parsed = parseJsonStrict(text.slice(at, scan.end));
      const calls = parsed === undefined ? [] : readCalls(parsed.value, true, context.knowledge.isKnown, 'mistral');
      return calls.length > 0 ? { kind: 'calls', start, end: scan.end, calls } : undefined;
    }
    if (scan.kind === 'incomplete' && mode === 'stream') return pending(start);
    if (scan.kind === 'incomplete') {
      // A list cut off before its `]`: every complete entry is kept, and the block is reported
      // unterminated (nothing is silently dropped).
      const calls: RawCall[] = [];
      for (const [entryStart, entryEnd] of scan.completed) {
        const parsed = parseJsonStrict(text.slice(entryStart, entryEnd));
        if (parsed !== undefined) calls.push(...readCalls(parsed.value, true, context.knowledge.isKnown, 'mistral'));
      }
      if (calls.length === 0) return undefined;
      return { kind: 'calls', start, end: text.length, calls, unterminated: true };
    }
    const [inner] = scan.completed;
    if (inner === undefined) return undefined;
    const parsed = parseJsonStrict(text.slice(inner[0], inner[1]));
    const calls = parsed === undefined ? [] : readCalls(parsed.value, true, context.knowledge.isKnown, 'mistral');
    if (calls.length === 0) return undefined;
    return { kind: 'calls', start, end: inner[1], calls };
  }

  function nameForm(start: number, first: number): Block {
    const calls: RawCall[] = [];
    let cursor = first;
    let end = start + MARKER.length;
    for (;;) {
      const nameStart = calls.length === 0 ? cursor : skipWhitespace(text, cursor);
      if (nameStart >= text.length) {
        if (mode === 'stream') return pending(start);
        break;
      }
      let nameEnd = nameStart;
      while (nameEnd < text.length && isNameCode(text.charCodeAt(nameEnd))) nameEnd++;
      if (nameEnd >= text.length && mode === 'stream') return pending(start);
      if (nameEnd === nameStart) break;
      let position = nameEnd;
      if (text.startsWith(CALL_ID, position)) {
        position += CALL_ID.length;
        while (position < text.length && isNameCode(text.charCodeAt(position))) position++;
        if (position >= text.length && mode === 'stream') return pending(start);
      }
      // Detokenised with special tokens skipped, v11 reads `NAME{...}`: the `[ARGS]` token is gone.
      const bareArgs = !text.startsWith(ARGS, position) && text.charCodeAt(position) === 123;
      if (!bareArgs && !text.startsWith(ARGS, position)) {
        if (
          mode === 'stream' &&
          (endsInsidePrefix(text, position, ARGS) || endsInsidePrefix(text, position, CALL_ID))
        ) {
          return pending(start);
        }
        break;
      }
      const argsStart = bareArgs ? position : skipWhitespace(text, position + ARGS.length);
      if (argsStart >= text.length && mode === 'stream') return pending(start);
      if (text.charCodeAt(argsStart) !== 123) break;
      const scan = scanJsonValue(text, argsStart);
      const nextMarker = markers.next(argsStart);
      if (scan.kind === 'incomplete') {
        if (mode === 'stream') return pending(start);
        // Cut off (a truncated string argument): an invalid call carrying the raw text, never a drop.
        const rawEnd = nextMarker < 0 ? text.length : nextMarker;
        const raw = text.slice(argsStart, rawEnd).trimEnd();
        calls.push({
          name: text.slice(nameStart, nameEnd),
          arguments: {},
          invalid: { raw, reason: 'the arguments text ends before its JSON object does', partial: true },
          source: 'mistral',
        });
        cursor = rawEnd;
        end = rawEnd;
        break;
      }
      const balanced =
        scan.kind === 'complete' ? scan.end : balancedEnd(text, argsStart, nextMarker < 0 ? text.length : nextMarker);
      if (balanced < 0 && mode === 'stream') return pending(start);
      const decoded = decodeArguments(scan.kind === 'complete', argsStart, balanced);
      if (decoded === undefined) break;
      calls.push({ name: text.slice(nameStart, nameEnd), ...decoded, source: 'mistral' });
      cursor = decoded.end;
      end = decoded.end;
    }
    if (calls.length > 0) return { kind: 'calls', start, end, calls };
    const bodyStart = start + MARKER.length;
    const next = markers.next(bodyStart);
    return {
      kind: 'malformed',
      start,
      end: bodyStart,
      bodyChars: countCharacters(text, bodyStart, next < 0 ? text.length : next),
    };
  }

  /** Strict JSON when it parses, else the repaired object between `at` and its balanced end. */
  function decodeArguments(
    strict: boolean,
    at: number,
    balanced: number,
  ): { arguments: Record<string, unknown>; repaired: boolean; end: number } | undefined {
    if (strict) {
      const parsed = parseJsonStrict(text.slice(at, balanced));
      if (parsed !== undefined && isRecord(parsed.value))
        return { arguments: parsed.value, repaired: false, end: balanced };
    }
    const next = argsMarkers.next(at);
    const limit = balanced >= 0 ? balanced : next < 0 ? text.length : next;
    const recovered = recoverLeadingObject(text.slice(at, limit));
    if (recovered === undefined) return undefined;
    return { arguments: recovered.value, repaired: true, end: balanced >= 0 ? balanced : at + recovered.end };
  }

  function holdFrom(floor: number): number {
    return openerPrefixStart(text, floor, [MARKER]);
  }

  return { source: 'mistral', findNext, holdFrom };
}

/**
 * The index after the brace closing the one at `start`, counting `{}` and `[]` outside
 * double-quoted strings; -1 when `limit` (the next marker, or the end) comes first.
 */
function balancedEnd(text: string, start: number, limit: number): number {
  let depth = 0;
  let quoted = false;
  for (let index = start; index < limit; index++) {
    const code = text.charCodeAt(index);
    if (quoted) {
      if (code === 92) index++;
      else if (code === 34) quoted = false;
    } else if (code === 34) {
      quoted = true;
    } else if (code === 123 || code === 91) {
      depth++;
    } else if (code === 125 || code === 93) {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

function isNameCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}
