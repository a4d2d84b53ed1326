import { extractJsonValues, parseJsonStrict } from '../extract-json-values.js';
import { type ForwardFinder, memoizeForward } from '../forward-finder.js';
import { readCalls } from '../read-call-object.js';
import type { ScanContext } from '../scan-context.js';
import { scanJsonValue } from '../scan-json-value.js';
import { type Block, countCharacters, type Grammar } from '../scan-types.js';
import { endsInsidePrefix, isBlank, skipWhitespace } from '../text-scanning.js';
import { isClosingMarker, matchCallFence, matchTagMarker, NO_MATCH, PARTIAL } from './tag-markers.js';
import { decodeTaggedBody } from './tagged-body.js';

/** Why a call from a block with no closer is invalid. */
const CUT_OFF = 'the call block was cut off before its closer';

type OpenerKind = 'tag' | 'invoke' | 'fence';

interface Opener {
  readonly start: number;
  readonly bodyStart: number;
  readonly kind: OpenerKind;
}

/**
 * @internal The `<tool_call>` family (source `tagged_json`): JSON, P-Format, code, Kimi or GLM
 * bodies inside `<tool_call>`, `<toolcall>`, `<tool-call>`, pipe-garbled markers, the attribute form,
 * bare `<invoke>…</invoke>` and fenced ```` ```tool_call ```` blocks. Markers pair positionally: the
 * next marker of the family closes the block. An opener followed only by whitespace and another
 * opener is a doubled opener: it is skipped and as many extra closers after the block are
 * swallowed (never an unrelated tag such as `</div>`).
 */
export function createTaggedGrammar(context: ScanContext): Grammar {
  const { text, lower, mode } = context;
  const angle = context.finder('<');
  const fences = context.finder('```');
  const invokeOpen = context.finder('<invoke>', true);
  const invokeClose = context.finder('</invoke>', true);
  const glmValueOpen = context.finder('<arg_value>');
  const glmValueClose = context.finder('</arg_value>');
  const parameterOpen = context.finder('<parameter');
  const parameterClose = context.finder('</parameter>');
  const cdataOpen = context.finder('<![CDATA[');
  const cdataClose = context.finder(']]>');
  // A stream buffer is scanned again and again; one search for `<invoke>` costs it less than the gate.
  const mayInvoke = mode === 'stream' || context.mayContain('invoke');

  /** The strict parse `jsonEnd` made of the last body it closed, for that body's decoder. */
  let parsedBody: { readonly text: string; readonly value: unknown } | undefined;
  // The last two markers asked about (a block's opener and closer are asked about in turn).
  let cachedMarker = -1;
  let cachedMarkerEnd = -1;
  let previousMarker = -1;
  let previousMarkerEnd = -1;
  const nextMarker = memoizeForward((from) => {
    for (let index = angle.next(from); index >= 0; index = angle.next(index + 1)) {
      if (markerEnd(index) >= 0) return index;
    }
    return -1;
  });
  const nextOpenerMarker = memoizeForward((from) => {
    for (let index = nextMarker.next(from); index >= 0; index = nextMarker.next(markerEnd(index))) {
      if (!isClosingMarker(lower, index)) return index;
    }
    return -1;
  });
  const nextFence = memoizeForward((from) => {
    for (let index = fences.next(from); index >= 0; index = fences.next(index + 1)) {
      if (matchCallFence(lower, index) >= 0) return index;
    }
    return -1;
  });

  /** `matchTagMarker` at `index`, remembering the last two answers (each marker is asked about often). */
  function markerEnd(index: number): number {
    if (index === cachedMarker) return cachedMarkerEnd;
    if (index === previousMarker) return previousMarkerEnd;
    previousMarker = cachedMarker;
    previousMarkerEnd = cachedMarkerEnd;
    cachedMarker = index;
    cachedMarkerEnd = matchTagMarker(lower, index);
    return cachedMarkerEnd;
  }

  function nextOpener(from: number): Opener | undefined {
    let best: Opener | undefined;
    const tag = nextOpenerMarker.next(from);
    if (tag >= 0) best = { start: tag, bodyStart: markerEnd(tag), kind: 'tag' };
    const invoke = mayInvoke ? invokeOpen.next(from) : -1;
    if (invoke >= 0 && (best === undefined || invoke < best.start)) {
      best = { start: invoke, bodyStart: invoke + 8, kind: 'invoke' };
    }
    const fence = nextFence.next(from);
    if (fence >= 0 && (best === undefined || fence < best.start)) {
      best = { start: fence, bodyStart: matchCallFence(lower, fence), kind: 'fence' };
    }
    return best;
  }

  function closeOf(opener: Opener): { bodyStart: number; closeStart: number; closeEnd: number; skipped: number } {
    let bodyStart = opener.bodyStart;
    if (opener.kind === 'invoke') {
      const close = invokeClose.next(bodyStart);
      return { bodyStart, closeStart: close, closeEnd: close < 0 ? -1 : close + 9, skipped: 0 };
    }
    if (opener.kind === 'fence') {
      let best = fences.next(bodyStart);
      let bestEnd = best < 0 ? -1 : best + 3;
      const marker = nextMarker.next(bodyStart);
      if (marker >= 0 && isClosingMarker(lower, marker) && (best < 0 || marker < best)) {
        best = marker;
        bestEnd = markerEnd(marker);
      }
      const invoke = invokeClose.next(bodyStart);
      if (invoke >= 0 && (best < 0 || invoke < best)) {
        best = invoke;
        bestEnd = invoke + 9;
      }
      return { bodyStart, closeStart: best, closeEnd: bestEnd, skipped: 0 };
    }
    let skipped = 0;
    for (;;) {
      const marker = nextMarker.next(jsonEnd(bodyStart));
      if (marker < 0) return { bodyStart, closeStart: -1, closeEnd: -1, skipped };
      if (!isClosingMarker(lower, marker) && isBlank(text, bodyStart, marker)) {
        bodyStart = markerEnd(marker);
        skipped++;
        continue;
      }
      return { bodyStart, closeStart: marker, closeEnd: markerEnd(marker), skipped };
    }
  }

  /**
   * Where to look for a body's closer: after the JSON value the body starts with, so a closing tag
   * written inside a JSON string (`"content": "</tool_call>"`) never ends the block. A body that is
   * not JSON, or JSON that breaks, is searched from its start; a JSON value still open at the end of
   * a stream is waited for (the text end, so no closer is found yet).
   */
  function jsonEnd(bodyStart: number): number {
    const at = skipWhitespace(text, bodyStart);
    const code = text.charCodeAt(at);
    if (code !== 123 && code !== 91) return valuesEnd(bodyStart, at);
    // The common case in one pass: the body up to the first marker is one complete JSON value and
    // that marker is a closer (so no opener comes before it). A closer inside a JSON string would
    // cut that string and fail the parse, so a success finds the same closer as the scan below; the
    // parse is handed to the body's decoder. (Asking for the closer before the next opener keeps
    // the shared finders moving forward: the body is searched once.)
    const closer = nextMarker.next(at);
    if (closer >= 0 && isClosingMarker(lower, closer)) {
      const body = text.slice(at, closer).trimEnd();
      const parsed = parseJsonStrict(body);
      if (parsed !== undefined) {
        parsedBody = { text: body, value: parsed.value };
        return closer;
      }
    }
    // The value is scanned once to its own end (strings with their escapes): markup inside a JSON
    // string is content however many openers or closers it repeats. A value still open at the end
    // of a stream is waited for; one that breaks or never closes is searched from its start.
    const scan = scanJsonValue(text, at, text.length);
    if (scan.kind === 'complete') return scan.end;
    if (scan.kind === 'incomplete' && mode === 'stream') return text.length;
    return bodyStart;
  }

  /**
   * Where to look for the closer of an element-per-value body (GLM / Ling `<arg_value>…</arg_value>`,
   * Qwen3-Coder `<parameter=…>…</parameter>`): after its last value, so markup inside a value
   * (`</tool_call>`, `<arg_key>`) never ends the block. A body whose first value opener comes after
   * the first marker (or that has none) is searched from its start; a value still open at the end
   * of a stream is waited for.
   */
  function valuesEnd(bodyStart: number, at: number): number {
    let position = at;
    for (;;) {
      const value = nextValueOpener(position);
      const marker = nextMarker.next(position);
      // A CDATA section (MiniCPM 5) is verbatim content: no marker inside it closes the block.
      const cdata = cdataOpen.next(position);
      if (cdata >= 0 && (marker < 0 || cdata < marker) && (value === undefined || cdata < value.start)) {
        const cdataEnd = cdataClose.next(cdata + 9);
        if (cdataEnd < 0) return text.length;
        position = cdataEnd + 3;
        continue;
      }
      if (value === undefined || (marker >= 0 && marker < value.start)) return position === at ? bodyStart : position;
      const close = value.closer.next(value.start);
      if (close < 0) return mode === 'stream' ? text.length : bodyStart;
      position = close + value.closeLength;
    }
  }

  function nextValueOpener(from: number): { start: number; closer: ForwardFinder; closeLength: number } | undefined {
    const glm = glmValueOpen.next(from);
    const parameter = parameterOpen.next(from);
    if (glm < 0 && parameter < 0) return undefined;
    if (parameter < 0 || (glm >= 0 && glm < parameter)) return { start: glm, closer: glmValueClose, closeLength: 12 };
    return { start: parameter, closer: parameterClose, closeLength: 12 };
  }

  /** Swallows up to `count` closers after `end`; -1 when a stream must wait to know. */
  function swallowClosers(end: number, count: number): number {
    let position = end;
    for (let index = 0; index < count; index++) {
      const next = skipWhitespace(text, position);
      if (next >= text.length) return mode === 'stream' ? -1 : position;
      if (text.charCodeAt(next) !== 60) return position;
      const matched = matchTagMarker(lower, next);
      if (matched === PARTIAL) return mode === 'stream' ? -1 : position;
      if (matched === NO_MATCH || !isClosingMarker(lower, next)) return position;
      position = matched;
    }
    return position;
  }

  function findNext(from: number): Block | undefined {
    const opener = nextOpener(from);
    if (opener === undefined) return undefined;
    const { bodyStart, closeStart, closeEnd, skipped } = closeOf(opener);
    if (closeStart >= 0) {
      const end = skipped > 0 ? swallowClosers(closeEnd, skipped) : closeEnd;
      if (end < 0) return { kind: 'pending', start: opener.start, end: text.length };
      // The parse `jsonEnd` made of this body, handed on once (never to a second reader).
      const parsed = parsedBody;
      parsedBody = undefined;
      const calls = decodeTaggedBody(text.slice(bodyStart, closeStart), context.knowledge, parsed);
      if (calls.length > 0) return { kind: 'calls', start: opener.start, end, calls };
      return { kind: 'malformed', start: opener.start, end, bodyChars: countCharacters(text, bodyStart, closeStart) };
    }
    if (mode === 'stream') {
      // No closer yet: only a marker (every one ends in `>`: tags, `</invoke>`, `]]>`) or a fence can
      // close it, unless a marker already stands in a JSON value still open: the value breaking (on
      // any character) would make that marker the closer.
      const decidedBy = opener.kind === 'tag' && nextMarker.next(bodyStart) >= 0 ? undefined : '>`';
      return { kind: 'pending', start: opener.start, end: text.length, decidedBy };
    }
    if (isBlank(text, bodyStart, text.length)) {
      return { kind: 'malformed', start: opener.start, end: text.length, bodyChars: 0 };
    }
    return recoverUnclosed(opener.start, bodyStart);
  }

  /**
   * Batch only: an opener with no closer still yields the first complete JSON call after it;
   * otherwise the opener (with any doubled openers after it) stays as text.
   */
  function recoverUnclosed(start: number, bodyStart: number): Block {
    const [first] = extractJsonValues(text, bodyStart, text.length, 1);
    if (first !== undefined) {
      const calls = readCalls(first.value, true, context.knowledge.isKnown, 'tagged_json');
      // A complete JSON call that ends the response lost only its closer (the stop sequence ate it,
      // as llama.cpp's and vLLM's Hermes readers accept); any other block without its closer was
      // cut off: partial, its call reaches admission invalid, never repaired into a runnable one.
      const end = skipTrailingClosers(first.end);
      if (isBlank(text, bodyStart, first.start) && isBlank(text, end, text.length))
        return { kind: 'calls', start, end, calls };
      const [call] = calls;
      if (call !== undefined) {
        const raw = text.slice(bodyStart, first.end);
        const cut = {
          name: call.name,
          arguments: {},
          source: call.source,
          invalid: { raw, reason: CUT_OFF, partial: true as const },
        };
        return { kind: 'calls', start, end, calls: [cut], unterminated: true };
      }
    }
    return { kind: 'unterminated', start, end: bodyStart };
  }

  /** Skips whitespace and closing tags (`</...>`, or a cut-off `</...` at the very end). */
  function skipTrailingClosers(end: number): number {
    let position = end;
    for (;;) {
      const next = skipWhitespace(text, position);
      if (next + 1 >= text.length || text.charCodeAt(next) !== 60 || text.charCodeAt(next + 1) !== 47) return position;
      const close = text.indexOf('>', next);
      const stop = Math.min(next + 66, text.length);
      const open = text.indexOf('<', next + 1);
      if (close < 0 || close >= stop) return stop >= text.length && (open < 0 || open >= stop) ? text.length : position;
      if (open >= 0 && open < close) return position;
      position = close + 1;
    }
  }

  function holdFrom(floor: number): number {
    let hold = -1;
    const last = text.lastIndexOf('<');
    if (last >= floor && (matchTagMarker(lower, last) === PARTIAL || endsInsidePrefix(lower, last, '<invoke>'))) {
      hold = last;
    }
    const tick = text.lastIndexOf('`');
    for (let index = Math.max(floor, tick - 2); tick >= 0 && index <= tick; index++) {
      if (matchCallFence(lower, index) === PARTIAL) {
        if (hold < 0 || index < hold) hold = index;
        break;
      }
    }
    return hold;
  }

  return { source: 'tagged_json', findNext, holdFrom };
}
