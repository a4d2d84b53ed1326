import type { JsonPrefixReader } from './json-prefix-reader.js';
import { parseCompleteText, reasoningEndsAt } from './parse-complete-text.js';
import type { ParsedCall, ParsedText } from './parse-types.js';
import type { ProseReadingState } from './prose-reading-state.js';
import { readProseJson } from './read-prose-json.js';
import { mayOpenMarker, readProseMarkers } from './read-prose-markers.js';
import {
  findReasoningEnd,
  hasTokenStart,
  newReasoningEnd,
  type ReasoningEnd,
  TOKEN_TAIL,
} from './reasoning-end-finder.js';
import type { ToolKnowledge } from './scan-context.js';
import { newStartReader, PYTHON_TAG, readStart, type StartReader } from './start-reader.js';
import { isWhitespace } from './text-scanning.js';
import { holdsOpenedProseMarker, readWholeReplyOpener } from './whole-reply-openers.js';

/** A reply start no other whole-reply opener has decided within this many characters is held whole. */
const OPENER_LIMIT = 256;

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
export class WholeResponseGuard implements ProseReadingState {
  /** @internal */
  readonly knowledge: ToolKnowledge;
  /** A JSON call inside prose is read only with offered tools (`stripEmbeddedJsonCalls`). */
  private readonly readsProse: boolean;
  /** The scrubbed text released so far (the start of the narrative the batch parse is compared with). */
  private released = '';
  /** Held scrubbed text, in the pieces it arrived in (joined only when some of it is released). */
  private held: string[] = [];
  /** @internal Absolute position (in the scrubbed stream) of the first held character. */
  base = 0;
  /** The absolute position of the end of the scrubbed stream. */
  private end = 0;
  /** @internal Everything from here on is held until the stream ends (a whole-response reading may read it). */
  holdFrom: number | undefined;
  private calls: ParsedCall[] = [];
  private callsReleased = 0;
  private blockCalls = 0;
  private start: StartReader = newStartReader();
  /** Whether the reply opens as another whole-reply reading (`whole-reply-openers.ts`): `undefined` while undecided. */
  private opened: boolean | undefined;
  /** The reply from its first non-space character, while `opened` is undecided. */
  private openerStart = '';
  private reasoning: ReasoningEnd = newReasoningEnd();
  /** The answer after a leading reasoning region, while it may still be a whole JSON value. */
  private answer: { reader: StartReader; closer: RegExp; at: number | undefined } | undefined;
  private tagTail = '';
  /** The last characters of the scrubbed stream (a `<|python_tag|>` or a closer still arriving). */
  private scrubTail = '';
  /** @internal A `{` or `[` in prose that the JSON-in-prose reading could still read, and where its hold starts. */
  candidate: JsonPrefixReader | undefined;
  /** @internal */
  candidateHold = 0;
  /** @internal Where the last non-space character of prose ends (a candidate's hold leaves the space before it shown). */
  lastNonSpaceEnd = 0;
  /** Whether the text fed so far has a `{` or a `[` (else no whole-response reading finds a call). */
  private sawBracket = false;
  /** Whether the text fed so far has a `>` or an `A` (else it holds no marker `readProseMarker` reads). */
  private sawMarkerCharacter = false;
  /** @internal A `>` or a line-start `A` in prose that may become a whole-reply marker (`readProseMarker`), and where its hold starts. */
  marker: { text: string; hold: number } | undefined;
  /** @internal Whether the marker reader stands at a line's start (only spaces or tabs since a line feed). */
  lineStart = true;
  /** @internal Where the marker reader's last non-space character ends (a marker's hold leaves the space before it shown). */
  markerSpaceFrom = 0;
  /** @internal Whether a marker after prose opened: the reply is held to its end, where the batch parse decides. */
  markerOpened = false;
  /** Characters the start and JSON-in-prose readings have examined since the guard was made (a test reads it to check work stays linear). */
  examined = 0;

  constructor(knowledge: ToolKnowledge) {
    this.knowledge = knowledge;
    this.readsProse = knowledge.names.length > 0;
    this.opened = this.readsProse ? undefined : false;
  }

  /**
   * `raw` is the fragment fed, `fed()` the whole stream fed so far (ending with `raw`), `scrubbed` what
   * the block scrubber released for it. Returns what may be shown: the text, and the calls unless a
   * whole-response reading could still replace them.
   */
  feed(raw: string, fed: () => string, scrubbed: ParsedText): ParsedText {
    if (!this.sawMarkerCharacter && (raw.indexOf('>') >= 0 || raw.indexOf('A') >= 0)) this.sawMarkerCharacter = true;
    if (
      scrubbed.calls.length === 0 &&
      this.isQuiet() &&
      isPlain(raw) &&
      isPlain(scrubbed.text) &&
      !(this.readsProse && mayOpenMarker(scrubbed.text, this.lineStart))
    ) {
      this.passPlain(raw, scrubbed.text);
      return scrubbed;
    }
    return this.feedHeld(raw, fed, scrubbed);
  }

  /**
   * Whether the guard is in plain prose: every whole-response reading is decided against, nothing
   * is held, no candidate, tag or closer is part-way, and no call waits. A feed that brings no `{`,
   * `[` or `<` (raw or scrubbed), and no `>` or line-start `A` scrubbed, then changes nothing but
   * positions ({@link passPlain}), and its scrubbed text is shown as is.
   */
  isQuiet(): boolean {
    return (
      this.holdFrom === undefined &&
      this.start.json === false &&
      this.opened === false &&
      (this.answer === undefined || this.answer.reader.json === false) &&
      this.candidate === undefined &&
      this.marker === undefined &&
      this.base === this.end &&
      this.calls.length === 0 &&
      this.tagTail === '' &&
      this.scrubTail === '' &&
      (this.reasoning.phase === 2 || this.reasoning.tail === '')
    );
  }

  /**
   * While {@link isQuiet}: what {@link feed} does with a fragment `raw` that the block scrubber
   * released as `chunk`, both without `{`, `[` or `<` (and `chunk` without what may open a marker),
   * without its windows and copies. A caller that passes `raw` with a `>` or an `A` uses {@link feed}.
   */
  passPlain(raw: string, chunk: string): void {
    const reasoning = this.reasoning;
    if (reasoning.phase !== 2) {
      if (reasoning.firstNonSpace < 0) {
        const first = raw.search(/\S/);
        if (first >= 0) reasoning.firstNonSpace = reasoning.offset + first;
      }
      reasoning.offset += raw.length;
    }
    if (chunk === '') return;
    if (this.readsProse) {
      this.examined += chunk.length;
      let last = chunk.length - 1;
      while (last >= 0 && isWhitespace(chunk.charCodeAt(last))) last--;
      if (last >= 0) {
        this.lastNonSpaceEnd = this.end + last + 1;
        this.markerSpaceFrom = this.lastNonSpaceEnd;
      }
      let lineLast = chunk.length - 1;
      while (lineLast >= 0 && (chunk.charCodeAt(lineLast) === 32 || chunk.charCodeAt(lineLast) === 9)) lineLast--;
      if (lineLast >= 0) this.lineStart = chunk.charCodeAt(lineLast) === 10;
    }
    this.end += chunk.length;
    this.base = this.end;
    this.released += chunk;
  }

  /** {@link feed} when a reading may hold: every reading reads the fragment, and what lies before the first hold is shown. */
  private feedHeld(raw: string, fed: () => string, scrubbed: ParsedText): ParsedText {
    const knowledge = this.knowledge;
    if (!this.sawBracket && (raw.indexOf('{') >= 0 || raw.indexOf('[') >= 0)) this.sawBracket = true;
    if (this.sawPythonTag(raw)) this.holdAllFrom(this.base);
    const ended = findReasoningEnd(this.reasoning, raw, knowledge.leadingReasoning);
    const start = this.start;
    // The batch parse reads the answer only when the reasoning tracker ends the region at that
    // closer too (a call token before it decides the start, and the closer is content): decided
    // by the text up to the closer, so it is checked once, now.
    if (ended !== undefined && this.holdFrom === undefined && reasoningEndsAt(fed(), ended.end, knowledge)) {
      this.answer = { reader: newStartReader(), closer: ended.closer, at: undefined };
      this.examined += readStart(this.answer.reader, ended.after);
    } else if (this.answer !== undefined && this.answer.reader.json === undefined) {
      this.examined += readStart(this.answer.reader, raw);
    }
    if (start.json === undefined) this.examined += readStart(start, raw);
    this.readOpener(raw);
    const chunk = scrubbed.text;
    if (chunk !== '') {
      this.held.push(chunk);
      this.end += chunk.length;
    }
    const end = this.end;
    const window = this.scrubTail + chunk;
    // A tail without `<` or `[` can start neither a closer nor `<|python_tag|>`: kept as nothing.
    this.scrubTail = window.slice(-TOKEN_TAIL);
    if (!hasTokenStart(this.scrubTail)) this.scrubTail = '';
    const answer = this.answer;
    if (answer !== undefined && answer.at === undefined && answer.reader.json !== false) {
      // The closer, as the block scrubber released it (it never shows text past it earlier).
      const closer = answer.closer.exec(window);
      if (closer !== null) answer.at = end - window.length + closer.index + closer[0].length;
    }
    if (start.json === true || this.opened === true) this.holdAllFrom(0);
    if (answer?.reader.json === true && answer.at !== undefined) this.holdAllFrom(answer.at);
    if (this.readsProse && chunk !== '' && this.holdFrom === undefined)
      readProseJson(this, chunk, end - chunk.length, 0);
    // Read while other readings hold too: only a marker lets the batch parse's Functionary or Command R+ reading decide.
    if (this.readsProse && chunk !== '' && !this.markerOpened) readProseMarkers(this, chunk, end - chunk.length);
    this.blockCalls += scrubbed.calls.length;
    this.calls.push(...scrubbed.calls);
    const text = this.releaseBefore(this.cutAt(window));
    if (this.wholeUndecided()) return { text, calls: [], diagnostics: scrubbed.diagnostics };
    const out = this.calls;
    this.calls = [];
    this.callsReleased += out.length;
    return { text, calls: out, diagnostics: scrubbed.diagnostics };
  }

  /** Where the first hold starts (`window` is the end of the scrubbed stream): what lies before it may be shown. */
  private cutAt(window: string): number {
    const { start, answer, end } = this;
    let cut = this.holdFrom ?? end;
    if (start.json === undefined || this.opened === undefined) cut = this.base;
    // Until the block scrubber has released the closer, all it released lies before it.
    if (answer?.at !== undefined && answer.reader.json !== false) cut = Math.min(cut, answer.at);
    if (answer?.reader.json === true && answer.at === undefined) cut = this.base;
    if (this.candidate !== undefined) cut = Math.min(cut, this.candidateHold);
    if (this.marker !== undefined) cut = Math.min(cut, this.marker.hold);
    // A tail that could still become `<|python_tag|>` (it starts with a `<`, the tag's only one).
    for (let index = Math.max(0, window.length - (PYTHON_TAG.length - 1)); index < window.length; index++) {
      if (window.charCodeAt(index) === 60 && PYTHON_TAG.startsWith(window.slice(index))) {
        cut = Math.min(cut, end - (window.length - index));
        break;
      }
    }
    return Math.max(cut, this.base);
  }

  /** Releases the held text before absolute position `cut`; returns it. */
  private releaseBefore(cut: number): string {
    if (cut <= this.base) return '';
    const whole = this.heldText();
    const text = whole.slice(0, cut - this.base);
    this.held = cut < this.end ? [whole.slice(cut - this.base)] : [];
    this.base = cut;
    this.released += text;
    return text;
  }

  /**
   * Ends the stream: `scrubbed` is the block scrubber's flush, `fed` the whole stream fed. Returns
   * the rest of the narrative and calls read whole, and resets the guard for a new stream.
   */
  flush(fed: string, scrubbed: ParsedText): ParsedText {
    const knowledge = this.knowledge;
    const rest = this.heldText() + scrubbed.text;
    const before = this.released;
    const heldCalls = [...this.calls, ...scrubbed.calls];
    const blockCount = this.blockCalls + scrubbed.calls.length;
    const alreadyRun = this.callsReleased;
    const bracket = this.sawBracket;
    // Held from its first character (a JSON start or another whole-reply opener): the batch parse decides it.
    // A marker still arriving at the end (or released at the end by the block scrubber) may be one too.
    if (this.readsProse && !this.markerOpened && scrubbed.text !== '') readProseMarkers(this, scrubbed.text, this.end);
    // A marker the block scrubber held inside an unclosed block never reached that reading: read the
    // whole reply for one.
    const heldWhole =
      this.opened === true ||
      this.start.json === true ||
      this.markerOpened ||
      this.marker !== undefined ||
      (this.readsProse && this.sawMarkerCharacter && holdsOpenedProseMarker(fed, knowledge));
    this.reset();
    const blockReading: ParsedText = { text: rest, calls: heldCalls, diagnostics: scrubbed.diagnostics };
    // Every `bare_json` reading needs a `{` or a `[`: without one (or a whole-reply opener) the batch parse is not run.
    if (!bracket && !heldWhole) return blockReading;
    let batch: ParsedText;
    try {
      batch = parseCompleteText(fed, knowledge, { allowBareJson: true, allowGlmLines: false });
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
  }

  /** @internal The held scrubbed text, joined. */
  heldText(): string {
    if (this.held.length > 1) this.held = [this.held.join('')];
    return this.held[0] ?? '';
  }

  /** @internal Holds everything from absolute `position` on until the stream ends. */
  holdAllFrom(position: number): void {
    this.holdFrom = Math.max(this.base, Math.min(this.holdFrom ?? position, position));
    this.candidate = undefined;
  }

  /** Forgets the stream (the examined count stays). */
  private reset(): void {
    this.released = '';
    this.held = [];
    this.base = 0;
    this.end = 0;
    this.holdFrom = undefined;
    this.calls = [];
    this.callsReleased = 0;
    this.blockCalls = 0;
    this.start = newStartReader();
    this.reasoning = newReasoningEnd();
    this.answer = undefined;
    this.tagTail = '';
    this.scrubTail = '';
    this.candidate = undefined;
    this.lastNonSpaceEnd = 0;
    this.sawBracket = false;
    this.sawMarkerCharacter = false;
    this.opened = this.readsProse ? undefined : false;
    this.openerStart = '';
    this.marker = undefined;
    this.lineStart = true;
    this.markerSpaceFrom = 0;
    this.markerOpened = false;
  }

  /** Whether `<|python_tag|>` appears in the text fed so far; `raw` is the newest fragment. */
  private sawPythonTag(raw: string): boolean {
    if (this.tagTail === '' && raw.indexOf('<') < 0) return false;
    const window = this.tagTail + raw;
    // Only the tag's first character is a `<`: a tag still arriving starts at a `<` among the last
    // characters (walked, not searched: this runs on every feed while one is near the end).
    const stop = Math.max(0, window.length - (PYTHON_TAG.length - 1));
    let last = window.length - 1;
    while (last >= stop && window.charCodeAt(last) !== 60) last--;
    // Kept only while it may still become the tag (a `<tool_call>` is past it at `<t`).
    const tail = last >= stop ? window.slice(last) : '';
    this.tagTail = PYTHON_TAG.startsWith(tail) ? tail : '';
    // The tag ends in its only `>`: a fragment without one completes no tag (the tail held none).
    return raw.indexOf('>') >= 0 && window.includes(PYTHON_TAG);
  }

  /** Whether a whole-response reading could still replace what the block scrubber reads. */
  private wholeUndecided(): boolean {
    return (
      this.holdFrom !== undefined ||
      this.start.json === undefined ||
      this.opened !== false ||
      (this.answer !== undefined && this.answer.reader.json !== false)
    );
  }

  /** Reads the newest fragment `raw` for a whole-reply opener other than JSON while that is undecided. */
  private readOpener(raw: string): void {
    if (this.opened !== undefined) return;
    this.openerStart = this.openerStart === '' ? raw.trimStart() : this.openerStart + raw;
    if (this.openerStart === '') return;
    this.examined += raw.length;
    const state =
      this.openerStart.length > OPENER_LIMIT ? 'opened' : readWholeReplyOpener(this.openerStart, this.knowledge);
    if (state === 'undecided') return;
    this.opened = state === 'opened';
    this.openerStart = '';
  }
}

/** @internal The guard for a stream, or `undefined` when no bare-JSON reading is allowed (nothing to guard). */
export function createWholeResponseGuard(knowledge: ToolKnowledge): WholeResponseGuard | undefined {
  return knowledge.allows('bare_json') ? new WholeResponseGuard(knowledge) : undefined;
}

/** Whether `text` has none of `{`, `[`, `<`: it can start or continue no JSON value, tag or reasoning token. */
function isPlain(text: string): boolean {
  if (text.length === 1) {
    const code = text.charCodeAt(0);
    return code !== 123 && code !== 91 && code !== 60;
  }
  return text.indexOf('{') < 0 && text.indexOf('[') < 0 && text.indexOf('<') < 0;
}
