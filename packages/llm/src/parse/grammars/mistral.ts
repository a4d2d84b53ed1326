import { recoverLeadingObject } from '../../repair/recover-leading-object.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import { readCalls } from '../read-call-object.js';
import type { ScanContext } from '../scan-context.js';
import { scanJsonValue } from '../scan-json-value.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { endsInsidePrefix, skipWhitespace } from '../text-scanning.js';

const MARKER = '[TOOL_CALLS]';
const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';

/**
 * @internal Mistral `[TOOL_CALLS]` written as text (source `mistral`). v3: a JSON array (or object)
 * of call objects right after the marker; v11 and later: `NAME[ARGS]{...}`, repeatable, with an
 * optional `[CALL_ID]id` before `[ARGS]`. A marker with nothing decodable after it is a malformed
 * block (only the marker is removed); in a stream it stays pending while more text could decide.
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
    return nameForm(start, first);
  }

  function arrayForm(start: number, at: number): Block | undefined {
    const scan = scanJsonValue(text, at);
    if (scan.kind === 'complete') {
      const parsed = parseJsonStrict(text.slice(at, scan.end));
      const calls = parsed === undefined ? [] : readCalls(parsed.value, true, context.knowledge.isKnown, 'mistral');
      return calls.length > 0 ? { kind: 'calls', start, end: scan.end, calls } : undefined;
    }
    if (scan.kind === 'incomplete' && mode === 'stream') return pending(start);
    const [inner] = scan.completed;
    if (inner === undefined) return undefined;
    const parsed = parseJsonStrict(text.slice(inner[0], inner[1]));
    const calls = parsed === undefined ? [] : readCalls(parsed.value, true, context.knowledge.isKnown, 'mistral');
    if (calls.length === 0) return undefined;
    return { kind: 'calls', start, end: scan.kind === 'incomplete' ? text.length : inner[1], calls };
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
      if (!text.startsWith(ARGS, position)) {
        if (
          mode === 'stream' &&
          (endsInsidePrefix(text, position, ARGS) || endsInsidePrefix(text, position, CALL_ID))
        ) {
          return pending(start);
        }
        break;
      }
      const argsStart = skipWhitespace(text, position + ARGS.length);
      if (argsStart >= text.length && mode === 'stream') return pending(start);
      if (text.charCodeAt(argsStart) !== 123) break;
      const scan = scanJsonValue(text, argsStart);
      if (scan.kind === 'incomplete') {
        if (mode === 'stream') return pending(start);
        break;
      }
      const nextMarker = markers.next(argsStart);
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
    const last = text.lastIndexOf('[');
    return last >= floor && endsInsidePrefix(text, last, MARKER) ? last : -1;
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
