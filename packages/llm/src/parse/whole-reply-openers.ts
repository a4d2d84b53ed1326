import type { ToolKnowledge } from './scan-context.js';

/** What a reply's start says about one whole-reply reading: it may apply, it may still, or it cannot. */
export type OpenerState = 'opened' | 'undecided' | 'closed';

/**
 * @internal How a reply read whole by `parseCompleteText` (with offered tools) starts, one entry per
 * whole-reply reading other than JSON (the guard's start reader covers bare JSON, `<|python_tag|>`
 * and a fence around JSON, a Command R+ action list without `Action:` included). Each reads `start`,
 * the reply so far from its first non-space character.
 */
const WHOLE_REPLY_OPENERS: ReadonlyArray<(start: string, knowledge: ToolKnowledge) => OpenerState> = [
  // `readWholePythonicList`: `[` then a callee and `(` (Llama 3.2 / 3.3 / 4).
  (start) => {
    if (/^\[\s*[A-Za-z_][\w.]*\s*\(/.test(start)) return 'opened';
    return /^\[\s*(?:[A-Za-z_][\w.]*\s*)?$/.test(start) ? 'undecided' : 'closed';
  },
  // `readFunctionaryRecipients` / `readCommandActionFence` from their markers, read as after prose: a
  // `>>>` naming `all` or an offered tool on its line, an `Action:` line opening a fence (Functionary
  // v3 / Command R+). A `>>> quote` or an `Action: none` opens neither.
  (start, knowledge) => readProseMarker(start, knowledge),
  // `readFunctionaryRecipients`: a first line naming `all` or an offered tool (Functionary v3.2).
  (start, knowledge) => {
    const lineEnd = start.indexOf('\n');
    const line = (lineEnd < 0 ? start : start.slice(0, lineEnd)).trim();
    if (lineEnd >= 0) return line === 'all' || knowledge.isKnown(line) ? 'opened' : 'closed';
    if (/\s\S/.test(start.trim())) return 'closed';
    return ['all', ...knowledge.names].some((name) => name.startsWith(line)) ? 'undecided' : 'closed';
  },
  // The fence around Hermes `<tool_call>` blocks read from its inside (` ```xml ` / ` ```json ` / ` ``` `).
  (start) => {
    if (!start.startsWith('```')) return '```'.startsWith(start) ? 'undecided' : 'closed';
    const info = /^```[ \t]*([A-Za-z]*)[ \t]*(\r?\n)?/.exec(start);
    if (info === null) return 'closed';
    const language = info[1]?.toLowerCase() ?? '';
    if (info[2] === undefined) {
      // The fence line is still arriving: its language may yet become `xml` or `json`.
      const rest = start.slice(info[0].length);
      const languageOpen = rest === '' || rest === '\r';
      return languageOpen && (language === '' || 'xml'.startsWith(language) || 'json'.startsWith(language))
        ? 'undecided'
        : 'closed';
    }
    if (language !== '' && language !== 'xml' && language !== 'json') return 'closed';
    const body = start.slice(info[0].length).trimStart().toLowerCase();
    if (body.startsWith('<tool_call')) return 'opened';
    return '<tool_call'.startsWith(body) ? 'undecided' : 'closed';
  },
];

/**
 * @internal Whether a reply starting with `start` (from its first non-space character) may be read
 * whole by a reading other than JSON: `opened` once one applies by its start (the reply is held to
 * its end), `undecided` while one still could, `closed` when none can.
 */
export function readWholeReplyOpener(start: string, knowledge: ToolKnowledge): OpenerState {
  if (knowledge.names.length === 0) return 'closed';
  let state: OpenerState = 'closed';
  for (const opener of WHOLE_REPLY_OPENERS) {
    const read = opener(start, knowledge);
    if (read === 'opened') return read;
    if (read === 'undecided') state = read;
  }
  return state;
}

/** `readCommandActionFence`'s `Action:` line up to the fence line's end, and the starts it may still have. */
const ACTION_LINE = /^Action:\s*```(?:json)?[ \t]*\r?\n/;
const ACTION_LINE_PREFIX = /^Action:\s*(?:`{0,2}|```(?:j|js|jso)|```(?:json)?[ \t]*\r?)$/;

/**
 * @internal Whether `marker`, the text from a `>` or from an `A` at a line's start (after spaces or
 * tabs) in prose, is a marker a whole-reply reading finds after prose: a Functionary `>>>` boundary
 * naming `all` or an offered tool on its line (`readFunctionaryRecipients`), or a Command R+ `Action:`
 * line opening a fence (`readCommandActionFence`). `opened` once it is (the reply is held to its
 * end, where the batch parse decides), `undecided` while it may still become one, `closed` when it cannot.
 */
export function readProseMarker(marker: string, knowledge: ToolKnowledge): OpenerState {
  if (knowledge.names.length === 0) return 'closed';
  if (marker.startsWith('>')) {
    if (!marker.startsWith('>>>')) return marker === '>' || marker === '>>' ? 'undecided' : 'closed';
    const rest = marker.slice(3);
    const lineEnd = rest.indexOf('\n');
    const recipient = (lineEnd < 0 ? rest : rest.slice(0, lineEnd)).trim();
    if (lineEnd >= 0) return recipient === 'all' || knowledge.isKnown(recipient) ? 'opened' : 'closed';
    return ['all', ...knowledge.names].some((name) => name.startsWith(recipient)) ? 'undecided' : 'closed';
  }
  if (ACTION_LINE.test(marker)) return 'opened';
  return 'Action:'.startsWith(marker) || ACTION_LINE_PREFIX.test(marker) ? 'undecided' : 'closed';
}

/**
 * @internal Whether `text` holds a marker `readProseMarker` reads as opened anywhere: a `>` or a
 * line-start `A` (after spaces or tabs) that opens a Functionary `>>>` boundary or a Command R+
 * `Action:` fence. Read on a whole reply at the end of a stream, where a marker the block scrubber held
 * inside an unclosed block never reached the guard's own reading.
 */
export function holdsOpenedProseMarker(text: string, knowledge: ToolKnowledge): boolean {
  if (knowledge.names.length === 0) return false;
  // A `>>>` marker is read up to its line's end only: one slice per line, not per rest of the reply.
  for (let at = text.indexOf('>>>'); at >= 0; at = text.indexOf('>>>', at + 1)) {
    const lineEnd = text.indexOf('\n', at);
    if (readProseMarker(text.slice(at, lineEnd < 0 ? text.length : lineEnd + 1), knowledge) === 'opened') return true;
  }
  for (const line of text.matchAll(/^[ \t]*(?=Action:)/gm))
    if (readProseMarker(text.slice((line.index ?? 0) + line[0].length), knowledge) === 'opened') return true;
  return false;
}
