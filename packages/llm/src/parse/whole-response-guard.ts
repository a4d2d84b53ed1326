import { parseJsonStrict } from './extract-json-values.js';
import {
  JSON_COMPLETE,
  JSON_GOING,
  type JsonPrefixReader,
  readJsonChar,
  startJsonPrefix,
} from './json-prefix-reader.js';
import { isRecord } from './own-properties.js';
import { parseCompleteText, reasoningEndsAt } from './parse-complete-text.js';
import type { ParsedCall, ParsedText } from './parse-types.js';
import type { ToolKnowledge } from './scan-context.js';
import { isWhitespace } from './text-scanning.js';
import { holdsOpenedProseMarker, readProseMarker, readWholeReplyOpener } from './whole-reply-openers.js';

const PYTHON_TAG = '<|python_tag|>';

/**
 * @internal Holds scrubbed stream text that the whole-response readings of a batch parse
 * (`parseToolCalls` with bare JSON: a response that is one JSON value, `<|python_tag|>{…}`, Llama
 * JSON calls inside prose) could still read as a call, so the stream never shows markup the batch
 * parse runs as a call.
 *
 * - A response whose first non-space character is `{` or `[` (or one fence around such a value),
 *   or that holds `<|python_tag|>`, is held whole until the stream ends; so is the answer after a
 *   leading reasoning region (as `parseCompleteText` finds one) that starts so, from the closer on.
 *   A `[` start is read as `readBareJson` reads arrays (strict JSON whose top holds an object): it
 *   is prose, released at once, from the character where it breaks (`[1/2]`, `[note]`), where it
 *   closes with no object at its top (`[1] `), or the first one after it that is neither space, `<`
 *   (a turn token) nor the closing fence.
 * - With offered tools, a `{` or `[` in prose is held while it is still a strict JSON prefix (the
 *   prose reading reads strict JSON, exactly as `JSON.parse` does, numbers and literals included);
 *   one that breaks is released at once, and one that closes (parsed, escapes decoded, as the
 *   prose reading parses it) is released unless it (or a container that closed inside a broken
 *   one) names an offered tool with `parameters` or `arguments`, which holds the rest. With no
 *   tools, prose is never held.
 * - While a whole-response reading could still replace the block reading, the block scrubber's
 *   calls are held too, and at the end one reading decides: a call is never released twice.
 * - Each character is examined once as it arrives (a break re-reads only what follows it), and the
 *   held text is joined only when some of it is released, so work is linear in the text.
 *
 * At the end, held text is replaced by the batch parse's narrative when a whole-response reading
 * found JSON calls there (source `bare_json`), so the concatenated output equals `parseToolCalls(text).text`
 * whenever that parse reads such calls.
 * - With offered tools, a reply whose start could still open another whole-reply reading (a pythonic
 *   call list, Functionary recipients, a Command R+ `Action:`, a fence around Hermes blocks; see
 *   `whole-reply-openers.ts`) is held until its start decides: released as soon as none can apply,
 *   else held to the end, where the batch parse's narrative and calls are given. So is the rest
 *   of a reply from a Functionary `>>>` boundary or a line-start Command R+ `Action:` line after
 *   prose (`readProseMarker`): from a `>` or a line-start `A` while it may still become one, released
 *   as soon as it cannot.
 */
export interface WholeResponseGuard {
  /**
   * `raw` is the fragment fed, `scrubbed` what the block scrubber released for it. Returns what may
   * be shown: the text, and the calls unless a whole-response reading could still replace them.
   */
  feed(raw: string, scrubbed: ParsedText): ParsedText;
  /** Ends the stream: `scrubbed` is the block scrubber's flush. Returns the rest of the narrative and calls read whole. */
  flush(scrubbed: ParsedText): ParsedText;
  /** Characters the start and JSON-in-prose readings have examined since the guard was made (work stays linear). */
  readonly examined: number;
}

/** The first reasoning token, as `parseCompleteText` finds it (`<think>`, `</thinking>`, `[THINK]`, any case). */
const REASONING_TOKEN = /<(\/?)think(?:ing)?>|\[(\/?)think\]/i;
/** Characters kept from one fragment to the next where a token split across them may have begun. */
const TOKEN_TAIL = 16;
/** A reply start no other whole-reply opener has decided within this many characters is held whole. */
const OPENER_LIMIT = 256;

/** Where a {@link StartReader} stands. */
const LEAD = 0;
const TAG = 1;
const FENCE_RUN = 2;
const FENCE_LINE = 3;
const BODY_LEAD = 4;
const ARRAY = 5;
const AFTER_ARRAY = 6;
const DONE = 7;

/**
 * How a reply's start (or the start of the answer after a leading reasoning region) is read: a
 * whole-response JSON reading needs it to be `{`, `[`, `<|python_tag|>` or one fence around such a value.
 * Read one character at a time (each examined once, nothing re-read), as `readBareJson` reads a whole
 * response: leading whitespace as `trim` skips it, then `{`, `<|python_tag|>`, a strict JSON array, or
 * a fence (three or more of one of `` ` `` or `~`, its line to the newline, then whitespace) around one.
 */
interface StartReader {
  phase: number;
  /** Characters of `<|python_tag|>` or of the fence run matched so far, and the fence character. */
  matched: number;
  fence: number;
  /** Whether it opened with a fence (what may follow a closed array differs). */
  fenced: boolean;
  /** The array being read (strict JSON, as `readBareJson` reads arrays) and whether it holds an object at its top. */
  array: JsonPrefixReader | undefined;
  hasObject: boolean;
  /** Characters read so far (positions for the array reader, and the work count). */
  read: number;
  /** `undefined` while undecided. */
  json: boolean | undefined;
}

function newStartReader(): StartReader {
  return {
    phase: LEAD,
    matched: 0,
    fence: 0,
    fenced: false,
    array: undefined,
    hasObject: false,
    read: 0,
    json: undefined,
  };
}

/** Reads `raw` on from where the reader stopped; returns the characters examined. */
function readStart(reader: StartReader, raw: string): number {
  let index = 0;
  for (; index < raw.length && reader.json === undefined; index++) {
    readStartChar(reader, raw.charCodeAt(index));
    reader.read++;
  }
  return index;
}

function readStartChar(reader: StartReader, code: number): void {
  switch (reader.phase) {
    case LEAD:
      if (isWhitespace(code)) return;
      if (code === 123) {
        decide(reader, true);
        return;
      }
      if (code === 91) {
        startArray(reader);
        return;
      }
      if (code === 96 || code === 126) {
        reader.phase = FENCE_RUN;
        reader.fence = code;
        reader.matched = 1;
        return;
      }
      if (code === 60) {
        reader.phase = TAG;
        reader.matched = 1;
        return;
      }
      decide(reader, false);
      return;
    case TAG:
      if (code !== PYTHON_TAG.charCodeAt(reader.matched)) {
        decide(reader, false);
        return;
      }
      reader.matched++;
      if (reader.matched === PYTHON_TAG.length) decide(reader, true);
      return;
    case FENCE_RUN:
      // One fence (``` or ~~~) around the whole response may hold one JSON value, whatever its info
      // string says (`stripOuterFence` removes any): read on once its line ends.
      if (reader.matched < 3) {
        if (code !== reader.fence) {
          decide(reader, false);
          return;
        }
        reader.matched++;
        return;
      }
      reader.fenced = true;
      reader.phase = code === 10 ? BODY_LEAD : FENCE_LINE;
      return;
    case FENCE_LINE:
      if (code === 10) reader.phase = BODY_LEAD;
      return;
    case BODY_LEAD:
      if (isWhitespace(code)) return;
      if (code === 123) {
        decide(reader, true);
        return;
      }
      if (code === 91) {
        startArray(reader);
        return;
      }
      decide(reader, false);
      return;
    case ARRAY:
      readArrayChar(reader, code);
      return;
    default:
      // After a closed array that holds an object: only trailing turn tokens (`<|eot_id|>`) or the
      // closing fence may follow (`readBareJson` needs the value to be the whole response).
      if (isWhitespace(code)) return;
      decide(reader, code === 60 || (reader.fenced && code === reader.fence));
  }
}

function startArray(reader: StartReader): void {
  reader.phase = ARRAY;
  reader.array = startJsonPrefix(reader.read);
  readArrayChar(reader, 91);
}

/**
 * A `[` start is read as `readBareJson` reads it: strict JSON (`JSON.parse`) whose entries are
 * calls, so an array that breaks (`[1/2]`, `[note]`, `[-] item`) or closes with no object at its
 * top (`[1] `, `["a"] b`) is prose, decided at the character that shows it.
 */
function readArrayChar(reader: StartReader, code: number): void {
  const array = reader.array;
  if (array === undefined) {
    decide(reader, false);
    return;
  }
  const at = reader.read;
  const outcome = readJsonChar(array, code, at);
  if (outcome === JSON_GOING) {
    if (code === 123 && array.kinds.length === 2 && array.starts[1] === at) reader.hasObject = true;
    return;
  }
  reader.array = undefined;
  if (outcome === JSON_COMPLETE && reader.hasObject) reader.phase = AFTER_ARRAY;
  else decide(reader, false);
}

function decide(reader: StartReader, json: boolean): void {
  reader.json = json;
  reader.phase = DONE;
  reader.array = undefined;
}

/**
 * Finds, in fragments as they arrive, where a leading reasoning region ends as `parseCompleteText`
 * reads it (its first reasoning token is a closer, with `leadingReasoning`; or an opener at the start
 * and that opener's closer). Only each fragment and a short tail are searched.
 */
interface ReasoningEnd {
  /** 0: looking for the first token, 1: for the closer of an opener at the start, 2: done. */
  phase: number;
  closer: RegExp | undefined;
  tail: string;
  /** Raw characters before the newest fragment, and the absolute position of the first non-space one. */
  offset: number;
  firstNonSpace: number;
}

/** What ends a leading reasoning region: its closer, the raw text after it and the absolute position past it. */
interface FoundReasoningEnd {
  closer: RegExp;
  after: string;
  end: number;
}

/** Returns the closer that ends the leading region and the raw text after it, when `raw` completes it. */
function findReasoningEnd(state: ReasoningEnd, raw: string, leadingReasoning: boolean): FoundReasoningEnd | undefined {
  if (state.phase === 2) return undefined;
  const window = state.tail + raw;
  const windowStart = state.offset - state.tail.length;
  if (state.firstNonSpace < 0) {
    const first = raw.search(/\S/);
    if (first >= 0) state.firstNonSpace = state.offset + first;
  }
  state.offset += raw.length;
  // Every reasoning token starts with `<` or `[`: a window without either holds none, nor the start of one.
  if (!hasTokenStart(window)) {
    state.tail = '';
    return undefined;
  }
  state.tail = window.slice(-TOKEN_TAIL);
  // Every token ends in `>` or `]`: a fragment without either completes none (the tail held none).
  if (raw.indexOf('>') < 0 && raw.indexOf(']') < 0) return undefined;
  if (state.phase === 0) {
    const token = REASONING_TOKEN.exec(window);
    if (token === null) return undefined;
    const atStart = state.firstNonSpace === windowStart + token.index;
    const pattern = new RegExp(token[0].replace(/[[\]/\\]/g, '\\$&'), 'i');
    if ((token[1] ?? token[2]) === '/') {
      state.phase = 2;
      if (!leadingReasoning) return undefined;
      const after = window.slice(token.index + token[0].length);
      return { closer: pattern, after, end: state.offset - after.length };
    }
    if (!atStart) {
      state.phase = 2;
      return undefined;
    }
    const closer = token[0].startsWith('[') ? '[/think]' : `</${token[0].slice(1)}`;
    state.closer = new RegExp(closer.replace(/[[\]/\\]/g, '\\$&'), 'i');
    state.phase = 1;
    // The closer may come in the same fragment: searched after the opener.
    return findCloser(state, window.slice(token.index + token[0].length));
  }
  return findCloser(state, window);
}

/**
 * Whether `text` has a `>` or a line-start `A` (after spaces or tabs; `lineStart` says whether `text`
 * begins at one), which may start a whole-reply marker after prose (`readProseMarker`).
 */
function mayOpenMarker(text: string, lineStart: boolean): boolean {
  if (text.indexOf('>') >= 0) return true;
  for (let at = text.indexOf('A'); at >= 0; at = text.indexOf('A', at + 1)) {
    let before = at - 1;
    while (before >= 0 && (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 9)) before--;
    if (before < 0 ? lineStart : text.charCodeAt(before) === 10) return true;
  }
  return false;
}

/** Whether `text` has none of `{`, `[`, `<`: it can start or continue no JSON value, tag or reasoning token. */
function isPlain(text: string): boolean {
  if (text.length === 1) {
    const code = text.charCodeAt(0);
    return code !== 123 && code !== 91 && code !== 60;
  }
  return text.indexOf('{') < 0 && text.indexOf('[') < 0 && text.indexOf('<') < 0;
}

function hasTokenStart(text: string): boolean {
  return text.indexOf('<') >= 0 || text.indexOf('[') >= 0;
}

function findCloser(state: ReasoningEnd, window: string): FoundReasoningEnd | undefined {
  state.tail = window.slice(-TOKEN_TAIL);
  const closer = state.closer?.exec(window);
  if (closer === null || closer === undefined || state.closer === undefined) return undefined;
  state.phase = 2;
  const after = window.slice(closer.index + closer[0].length);
  return { closer: state.closer, after, end: state.offset - after.length };
}

export function createWholeResponseGuard(knowledge: ToolKnowledge): WholeResponseGuard | undefined {
  if (!knowledge.allows('bare_json')) return undefined;
  /** A JSON call inside prose is read only with offered tools (`stripEmbeddedJsonCalls`). */
  const readsProse = knowledge.names.length > 0;
  let all = '';
  let released = '';
  /** Held scrubbed text, in the pieces it arrived in (joined only when some of it is released). */
  let held: string[] = [];
  /** Absolute position (in the scrubbed stream) of the first held character, and of the end. */
  let base = 0;
  let end = 0;
  /** Everything from here on is held until the stream ends (a whole-response reading may read it). */
  let holdFrom: number | undefined;
  let calls: ParsedCall[] = [];
  let callsReleased = 0;
  let blockCalls = 0;
  let start: StartReader = newStartReader();
  /** Whether the reply opens as another whole-reply reading (`whole-reply-openers.ts`): `undefined` while undecided. */
  let opened: boolean | undefined = readsProse ? undefined : false;
  /** The reply from its first non-space character, while `opened` is undecided. */
  let openerStart = '';
  let reasoning: ReasoningEnd = { phase: 0, closer: undefined, tail: '', offset: 0, firstNonSpace: -1 };
  /** The answer after a leading reasoning region, while it may still be a whole JSON value. */
  let answer: { reader: StartReader; closer: RegExp; at: number | undefined } | undefined;
  let tagTail = '';
  /** The last characters of the scrubbed stream (a `<|python_tag|>` or a closer still arriving). */
  let scrubTail = '';
  /** A `{` or `[` in prose that the JSON-in-prose reading could still read, and where its hold starts. */
  let candidate: JsonPrefixReader | undefined;
  let candidateHold = 0;
  let lastNonSpaceEnd = 0;
  /** Whether the text fed so far has a `{` or a `[` (else no whole-response reading finds a call). */
  let sawBracket = false;
  /** A `>` or a line-start `A` in prose that may become a whole-reply marker (`readProseMarker`), and where its hold starts. */
  let marker: { text: string; hold: number } | undefined;
  /** Whether the marker reader stands at a line's start (only spaces or tabs since a line feed). */
  let lineStart = true;
  /** Where the marker reader's last non-space character ends (a marker's hold leaves the space before it shown). */
  let markerSpaceFrom = 0;
  /** Whether a marker after prose opened: the reply is held to its end, where the batch parse decides. */
  let markerOpened = false;
  /** Characters examined by the start and JSON-in-prose readings (a test reads it to check work stays linear). */
  let examined = 0;

  /** Whether `<|python_tag|>` appears in the text fed so far; `raw` is the newest fragment. */
  function sawPythonTag(raw: string): boolean {
    if (tagTail === '' && raw.indexOf('<') < 0) return false;
    const window = tagTail + raw;
    // Only the tag's first character is a `<`: a tag still arriving starts at a `<` among the last
    // characters (walked, not searched: this runs on every feed while one is near the end).
    const stop = Math.max(0, window.length - (PYTHON_TAG.length - 1));
    let last = window.length - 1;
    while (last >= stop && window.charCodeAt(last) !== 60) last--;
    tagTail = last >= stop ? window.slice(last) : '';
    // The tag ends in its only `>`: a fragment without one completes no tag (the tail held none).
    return raw.indexOf('>') >= 0 && window.includes(PYTHON_TAG);
  }

  function heldText(): string {
    if (held.length > 1) held = [held.join('')];
    return held[0] ?? '';
  }

  function holdAllFrom(position: number): void {
    holdFrom = Math.max(base, Math.min(holdFrom ?? position, position));
    candidate = undefined;
  }

  /** Where whitespace before `position` starts (it is the narrative's to join with what follows). */
  function beforeSpace(text: string, position: number): number {
    let cut = position;
    while (cut > base && /\s/.test(text.charAt(cut - 1 - base))) cut--;
    return cut;
  }

  /**
   * Reads `text` (whose first character stands at absolute `offset`) from index `from` for JSON in
   * prose. Each character is examined once, except after a break: what follows the break is read
   * again from the held text (as `extractJsonValues` resumes there), at most once per break.
   */
  function readProse(text: string, offset: number, from: number): void {
    let source = text;
    let sourceOffset = offset;
    for (let index = from; index < source.length && holdFrom === undefined; index++) {
      const at = sourceOffset + index;
      const code = source.charCodeAt(index);
      examined++;
      if (candidate === undefined) {
        if (code === 123 || code === 91) {
          candidate = startJsonPrefix(at);
          candidateHold = Math.max(base, lastNonSpaceEnd);
        } else {
          // Whitespace as the narrative trims it (a no-break space too): held with a candidate after it.
          if (!isWhitespace(code)) lastNonSpaceEnd = at + 1;
          continue;
        }
      }
      const outcome = readJsonChar(candidate, code, at);
      if (outcome === JSON_GOING) continue;
      const whole = heldText();
      const found = candidate;
      candidate = undefined;
      if (outcome === JSON_COMPLETE) {
        if (looksLikeCall(whole.slice(found.open - base, at + 1 - base), knowledge)) {
          holdAllFrom(candidateHold);
          return;
        }
        lastNonSpaceEnd = at + 1;
        continue;
      }
      // Broken: the containers that closed inside are read on their own, and the search resumes at the break.
      for (const [spanStart, spanEnd] of found.closed) {
        if (looksLikeCall(whole.slice(spanStart - base, spanEnd - base), knowledge)) {
          holdAllFrom(beforeSpace(whole, spanStart));
          return;
        }
      }
      const resume = at > found.open ? at : found.open + 1;
      lastNonSpaceEnd = beforeSpace(whole, resume);
      source = whole;
      sourceOffset = base;
      index = resume - base - 1;
    }
  }

  /**
   * Reads `text` (whose first character stands at absolute `offset`) for a Functionary `>>>` boundary
   * or a Command R+ `Action:` line after prose; a marker that cannot be one is read again from its
   * second character (markers are short: a recipient no longer than an offered name, an action line).
   */
  function readMarkers(text: string, offset: number): void {
    for (let index = 0; index < text.length && !markerOpened; index++) {
      const character = text.charAt(index);
      if (marker !== undefined) {
        // Counted: a marker's characters are read again when it closes (finding its start is a search).
        examined++;
        marker.text += character;
        const state = readProseMarker(marker.text, knowledge);
        if (state === 'undecided') continue;
        if (state === 'opened') {
          markerOpened = true;
          holdAllFrom(marker.hold);
          marker = undefined;
          return;
        }
        // Not a marker: read again from its second character.
        const again = marker.text.slice(1);
        const againAt = offset + index + 1 - again.length;
        marker = undefined;
        lineStart = false;
        markerSpaceFrom = againAt;
        readMarkers(again, againAt);
        continue;
      }
      if (character === '>' || (lineStart && character === 'A')) {
        marker = { text: character, hold: Math.max(base, markerSpaceFrom) };
        continue;
      }
      if (character === '\n') lineStart = true;
      else if (character !== ' ' && character !== '\t') lineStart = false;
      if (!isWhitespace(text.charCodeAt(index))) markerSpaceFrom = offset + index + 1;
    }
  }

  /** Whether a whole-response reading could still replace what the block scrubber reads. */
  function wholeUndecided(): boolean {
    return (
      holdFrom !== undefined ||
      start.json === undefined ||
      opened !== false ||
      (answer !== undefined && answer.reader.json !== false)
    );
  }

  /** Reads the newest fragment `raw` for a whole-reply opener other than JSON while that is undecided. */
  function readOpener(raw: string): void {
    if (opened !== undefined) return;
    openerStart = openerStart === '' ? raw.trimStart() : openerStart + raw;
    if (openerStart === '') return;
    examined += raw.length;
    const state = openerStart.length > OPENER_LIMIT ? 'opened' : readWholeReplyOpener(openerStart, knowledge);
    if (state === 'undecided') return;
    opened = state === 'opened';
    openerStart = '';
  }

  /**
   * Whether the guard is in plain prose: every whole-response reading is decided against, nothing
   * is held, no candidate, tag or closer is part-way, and no call waits. A feed that brings no `{`,
   * `[` or `<` (raw or scrubbed) then changes nothing but positions, and its scrubbed text is shown as is.
   */
  function quiet(): boolean {
    return (
      holdFrom === undefined &&
      start.json === false &&
      opened === false &&
      (answer === undefined || answer.reader.json === false) &&
      candidate === undefined &&
      marker === undefined &&
      base === end &&
      calls.length === 0 &&
      tagTail === '' &&
      scrubTail === '' &&
      (reasoning.phase === 2 || reasoning.tail === '')
    );
  }

  return {
    feed(raw, scrubbed) {
      if (
        scrubbed.calls.length === 0 &&
        quiet() &&
        isPlain(raw) &&
        isPlain(scrubbed.text) &&
        !(readsProse && mayOpenMarker(scrubbed.text, lineStart))
      ) {
        // What the full path below does with such a feed, without its windows and copies.
        all += raw;
        if (reasoning.phase !== 2) {
          if (reasoning.firstNonSpace < 0) {
            const first = raw.search(/\S/);
            if (first >= 0) reasoning.firstNonSpace = reasoning.offset + first;
          }
          reasoning.offset += raw.length;
        }
        const chunk = scrubbed.text;
        if (chunk === '') return scrubbed;
        if (readsProse) {
          examined += chunk.length;
          let last = chunk.length - 1;
          while (last >= 0 && isWhitespace(chunk.charCodeAt(last))) last--;
          if (last >= 0) lastNonSpaceEnd = end + last + 1;
          if (last >= 0) markerSpaceFrom = lastNonSpaceEnd;
          let lineLast = chunk.length - 1;
          while (lineLast >= 0 && (chunk.charCodeAt(lineLast) === 32 || chunk.charCodeAt(lineLast) === 9)) lineLast--;
          if (lineLast >= 0) lineStart = chunk.charCodeAt(lineLast) === 10;
        }
        end += chunk.length;
        base = end;
        released += chunk;
        return scrubbed;
      }
      all += raw;
      if (!sawBracket && (raw.indexOf('{') >= 0 || raw.indexOf('[') >= 0)) sawBracket = true;
      if (sawPythonTag(raw)) holdAllFrom(base);
      const ended = findReasoningEnd(reasoning, raw, knowledge.leadingReasoning);
      // The batch parse reads the answer only when the reasoning tracker ends the region at that
      // closer too (a call token before it decides the start, and the closer is content): decided
      // by the text up to the closer, so it is checked once, now.
      if (ended !== undefined && holdFrom === undefined && reasoningEndsAt(all, ended.end, knowledge)) {
        answer = { reader: newStartReader(), closer: ended.closer, at: undefined };
        examined += readStart(answer.reader, ended.after);
      } else if (answer !== undefined && answer.reader.json === undefined) examined += readStart(answer.reader, raw);
      if (start.json === undefined) examined += readStart(start, raw);
      readOpener(raw);
      const chunk = scrubbed.text;
      if (chunk !== '') {
        held.push(chunk);
        end += chunk.length;
      }
      const window = scrubTail + chunk;
      // A tail without `<` or `[` can start neither a closer nor `<|python_tag|>`: kept as nothing.
      scrubTail = window.slice(-TOKEN_TAIL);
      if (!hasTokenStart(scrubTail)) scrubTail = '';
      if (answer !== undefined && answer.at === undefined && answer.reader.json !== false) {
        // The closer, as the block scrubber released it (it never shows text past it earlier).
        const closer = answer.closer.exec(window);
        if (closer !== null) answer.at = end - window.length + closer.index + closer[0].length;
      }
      if (start.json === true || opened === true) holdAllFrom(0);
      if (answer?.reader.json === true && answer.at !== undefined) holdAllFrom(answer.at);
      if (readsProse && chunk !== '' && holdFrom === undefined) readProse(chunk, end - chunk.length, 0);
      // Read while other readings hold too: only a marker lets the batch parse's Functionary or Command R+ reading decide.
      if (readsProse && chunk !== '' && !markerOpened) readMarkers(chunk, end - chunk.length);
      blockCalls += scrubbed.calls.length;
      calls.push(...scrubbed.calls);
      // What may be shown: up to the first hold.
      let cut = holdFrom ?? end;
      if (start.json === undefined || opened === undefined) cut = base;
      // Until the block scrubber has released the closer, all it released lies before it.
      if (answer?.at !== undefined && answer.reader.json !== false) cut = Math.min(cut, answer.at);
      if (answer?.reader.json === true && answer.at === undefined) cut = base;
      if (candidate !== undefined) cut = Math.min(cut, candidateHold);
      if (marker !== undefined) cut = Math.min(cut, marker.hold);
      // A tail that could still become `<|python_tag|>` (it starts with a `<`, the tag's only one).
      for (let index = Math.max(0, window.length - (PYTHON_TAG.length - 1)); index < window.length; index++) {
        if (window.charCodeAt(index) === 60 && PYTHON_TAG.startsWith(window.slice(index))) {
          cut = Math.min(cut, end - (window.length - index));
          break;
        }
      }
      cut = Math.max(cut, base);
      let text = '';
      if (cut > base) {
        const whole = heldText();
        text = whole.slice(0, cut - base);
        held = cut < end ? [whole.slice(cut - base)] : [];
        base = cut;
        released += text;
      }
      if (wholeUndecided()) return { text, calls: [], diagnostics: scrubbed.diagnostics };
      const out = calls;
      calls = [];
      callsReleased += out.length;
      return { text, calls: out, diagnostics: scrubbed.diagnostics };
    },
    flush(scrubbed) {
      const rest = heldText() + scrubbed.text;
      const whole = all;
      const before = released;
      const heldCalls = [...calls, ...scrubbed.calls];
      const blockCount = blockCalls + scrubbed.calls.length;
      const alreadyRun = callsReleased;
      const bracket = sawBracket;
      // Held from its first character (a JSON start or another whole-reply opener): the batch parse decides it.
      // A marker still arriving at the end (or released at the end by the block scrubber) may be one too.
      if (readsProse && !markerOpened && scrubbed.text !== '') readMarkers(scrubbed.text, end);
      // A marker the block scrubber held inside an unclosed block never reached that reading: read the
      // whole reply for one.
      const heldWhole =
        opened === true ||
        start.json === true ||
        markerOpened ||
        marker !== undefined ||
        (readsProse && holdsOpenedProseMarker(whole, knowledge));
      all = '';
      released = '';
      held = [];
      base = 0;
      end = 0;
      holdFrom = undefined;
      calls = [];
      callsReleased = 0;
      blockCalls = 0;
      start = newStartReader();
      reasoning = { phase: 0, closer: undefined, tail: '', offset: 0, firstNonSpace: -1 };
      answer = undefined;
      tagTail = '';
      scrubTail = '';
      candidate = undefined;
      lastNonSpaceEnd = 0;
      sawBracket = false;
      opened = readsProse ? undefined : false;
      openerStart = '';
      marker = undefined;
      lineStart = true;
      markerSpaceFrom = 0;
      markerOpened = false;
      const blockReading: ParsedText = { ...scrubbed, text: rest, calls: heldCalls };
      // Every `bare_json` reading needs a `{` or a `[`: without one (or a whole-reply opener) the batch parse is not run.
      if (!bracket && !heldWhole) return blockReading;
      let batch: ParsedText;
      try {
        batch = parseCompleteText(whole, knowledge, { allowBareJson: true, allowGlmLines: false });
      } catch {
        return blockReading;
      }
      if (!heldWhole && !batch.calls.some((call) => call.source === 'bare_json')) return blockReading;
      if (batch.text === before + rest && batch.calls.length === blockCount) return blockReading;
      // One reading decides: a call the block reading already released has run, and it stands.
      if (alreadyRun > 0) return blockReading;
      // A whole-response reading found calls: its narrative stands (what was already shown is its start).
      const text = batch.text.startsWith(before) ? batch.text.slice(before.length) : '';
      return { text, calls: batch.calls, diagnostics: batch.diagnostics };
    },
    get examined() {
      return examined;
    },
  };
}

/**
 * Whether a closed `{…}` is an object naming an offered tool (any tool when none were offered) with
 * `parameters` or `arguments`, read as the prose reading reads it (`stripEmbeddedJsonCalls`): with
 * `JSON.parse`, escapes decoded; what it rejects is never a call there.
 */
function looksLikeCall(candidate: string, knowledge: ToolKnowledge): boolean {
  const parsed = parseJsonStrict(candidate);
  if (parsed === undefined) return false;
  const value = parsed.value;
  if (!isRecord(value) || typeof value.name !== 'string') return false;
  const known = knowledge.tools.length === 0 || knowledge.isKnown(value.name);
  return known && (Object.hasOwn(value, 'parameters') || Object.hasOwn(value, 'arguments'));
}
