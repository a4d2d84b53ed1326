import { isRecord } from './own-properties.js';
import { parseCompleteText } from './parse-complete-text.js';
import type { ParsedText } from './parse-types.js';
import type { ToolKnowledge } from './scan-context.js';

const PYTHON_TAG = '<|python_tag|>';

/**
 * @internal Holds scrubbed stream text that the whole-response readings of a batch parse
 * (`parseToolCalls` with bare JSON: a response that is one JSON value, `<|python_tag|>{…}`, Llama
 * JSON calls inside prose) could still read as a call, so the stream never shows markup the batch
 * parse runs as a call.
 *
 * - A response whose first non-space character is `{` or `[`, or that holds `<|python_tag|>`, is
 *   held whole until the stream ends.
 * - Any other `{` is held until its JSON value closes; an object naming an offered tool with
 *   `parameters` or `arguments` holds the rest of the response, anything else is released.
 *
 * At the end, held text is replaced by the batch parse's narrative when a whole-response reading
 * found JSON calls there (source `bare_json`), so the concatenated output equals `parseToolCalls(text).text`
 * whenever that parse reads such calls. Other whole-response readings (Functionary recipients, a
 * Command R+ action fence, a fence around Hermes blocks) are not held.
 */
export interface WholeResponseGuard {
  /** `raw` is the fragment fed, `scrubbed` what the block scrubber released for it. Returns what may be shown. */
  feed(raw: string, scrubbed: string): string;
  /** Ends the stream: `scrubbed` is the block scrubber's flush. Returns the rest of the narrative and calls read whole. */
  flush(scrubbed: ParsedText): ParsedText;
}

export function createWholeResponseGuard(knowledge: ToolKnowledge): WholeResponseGuard | undefined {
  if (!knowledge.allows('bare_json')) return undefined;
  let all = '';
  let released = '';
  let pending = '';
  let holdAll = false;
  // The reply's start is read only until it settles, and `<|python_tag|>` is looked for only in what
  // each feed adds (with the tail that could have started it), so a long stream is never re-read.
  let startSettled = false;
  let tagTail = '';
  /** Whether the reply starts with a fence whose first line has not ended yet. */
  let fenceLineOpen = false;
  /** A `{` in `pending` whose object has not closed yet, read so far (resumed on the next feed, never re-read). */
  let object: ObjectScan | undefined;

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
    return window.includes(PYTHON_TAG);
  }

  /** Whether the text fed so far has a `{` or a `[` (else no whole-response reading finds a call). */
  let sawBracket = false;

  /** How much of `pending` is known not to start a call a whole-response reading finds. */
  function releasable(): number {
    if (!startSettled) {
      // Until the opening fence's line ends, nothing decides more (the reply is not re-read).
      if (fenceLineOpen) return 0;
      const start = startCut(all.trimStart());
      if (start !== undefined) return start;
      startSettled = true;
    }
    return proseCut();
  }

  /** While the reply's start is undecided: 0 (hold everything), else undefined (it is settled). */
  function startCut(start: string): number | undefined {
    if (start === '' || (start.length < PYTHON_TAG.length && PYTHON_TAG.startsWith(start))) return 0;
    if (start.startsWith('{') || start.startsWith('[')) {
      holdAll = true;
      return 0;
    }
    // One fence (``` or ~~~) around the whole response may hold one JSON value, whatever its info
    // string says (`stripOuterFence` removes any): held until its line ends and its body starts.
    if ('```'.startsWith(start.slice(0, 3)) || '~~~'.startsWith(start.slice(0, 3))) {
      const newline = start.indexOf('\n');
      fenceLineOpen = newline < 0 && start.length >= 3;
      if (newline < 0) return 0;
      const body = start.slice(newline + 1).trimStart();
      if (body === '') return 0;
      if (body.startsWith('{') || body.startsWith('[')) {
        holdAll = true;
        return 0;
      }
    }
    return undefined;
  }

  /** How much of `pending` is prose with no JSON call in it (nor the start of one). */
  function proseCut(): number {
    let cursor = 0;
    for (;;) {
      if (object === undefined) {
        const open = pending.indexOf('{', cursor);
        if (open < 0) break;
        object = { open, at: open, depth: 0, inString: false };
      }
      const end = readObject(pending, object);
      // Whitespace before a call is the narrative's to join: held with it.
      if (end < 0) return withoutTrailingSpace(pending, object.open);
      const { open } = object;
      object = undefined;
      if (looksLikeCall(pending.slice(open, end), knowledge)) {
        holdAll = true;
        return withoutTrailingSpace(pending, open);
      }
      cursor = end;
    }
    // A tail that could still become `<|python_tag|>` (it starts with a `<`, the tag's only one).
    for (let index = Math.max(0, pending.length - (PYTHON_TAG.length - 1)); index < pending.length; index++) {
      if (pending.charCodeAt(index) === 60 && PYTHON_TAG.startsWith(pending.slice(index))) return index;
    }
    return pending.length;
  }

  return {
    feed(raw, scrubbed) {
      all += raw;
      pending += scrubbed;
      if (!sawBracket && (raw.indexOf('{') >= 0 || raw.indexOf('[') >= 0)) sawBracket = true;
      if (sawPythonTag(raw)) holdAll = true;
      if (fenceLineOpen && raw.indexOf('\n') >= 0) fenceLineOpen = false;
      // Nothing to release: the reply's start and any JSON in it are read once there is.
      if (holdAll || pending === '') return '';
      const cut = releasable();
      if (holdAll && cut <= 0) return '';
      const out = pending.slice(0, cut);
      pending = pending.slice(cut);
      if (object !== undefined) {
        object.open -= cut;
        object.at -= cut;
      }
      released += out;
      return out;
    },
    flush(scrubbed) {
      const rest = pending + scrubbed.text;
      const whole = all;
      const before = released;
      all = '';
      released = '';
      pending = '';
      holdAll = false;
      startSettled = false;
      tagTail = '';
      fenceLineOpen = false;
      object = undefined;
      const bracket = sawBracket;
      sawBracket = false;
      if (rest === '' && !bracket) return scrubbed;
      let batch: ParsedText;
      try {
        batch = parseCompleteText(whole, knowledge, { allowBareJson: true, allowGlmLines: false });
      } catch {
        return { ...scrubbed, text: rest };
      }
      if (!batch.calls.some((call) => call.source === 'bare_json') || batch.text === before + rest) {
        return { ...scrubbed, text: rest };
      }
      // A whole-response reading found calls: its narrative stands (what was already shown is its start).
      const text = batch.text.startsWith(before) ? batch.text.slice(before.length) : '';
      return { text, calls: batch.calls, diagnostics: batch.diagnostics };
    },
  };
}

function withoutTrailingSpace(text: string, end: number): number {
  let cut = end;
  while (cut > 0 && /\s/.test(text.charAt(cut - 1))) cut--;
  return cut;
}

/** A JSON object being read: where its `{` stands, the next index to read, and the reader's state there. */
interface ObjectScan {
  open: number;
  at: number;
  depth: number;
  inString: boolean;
}

/**
 * Reads on from `scan.at` (string-aware brace matching): the end of the object opened at
 * `scan.open`, or -1 while it is open (then `scan` holds where to resume when `text` has grown).
 */
function readObject(text: string, scan: ObjectScan): number {
  let { depth, inString } = scan;
  let index = scan.at;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92) index++;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) depth++;
    else if (code === 125 || code === 93) {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  // After a backslash at the end, `index` is past the end: the escaped character is skipped on resuming.
  scan.at = index;
  scan.depth = depth;
  scan.inString = inString;
  return -1;
}

/** Whether a closed `{…}` is an object naming an offered tool (any tool when none were offered) with `parameters` or `arguments`. */
function looksLikeCall(candidate: string, knowledge: ToolKnowledge): boolean {
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch {
    // Relaxed JSON a repair could still read: held when it names an offered tool (any name when no
    // tools were offered: the batch parse then reads calls of any name, e.g. after a reasoning closer).
    const named = knowledge.tools.length === 0 || knowledge.names.some((name) => candidate.includes(name));
    return named && /parameters|arguments/.test(candidate);
  }
  if (!isRecord(value) || typeof value.name !== 'string') return false;
  const known = knowledge.tools.length === 0 || knowledge.isKnown(value.name);
  return known && (Object.hasOwn(value, 'parameters') || Object.hasOwn(value, 'arguments'));
}
