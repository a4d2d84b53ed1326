import {
  JSON_COMPLETE,
  JSON_GOING,
  type JsonPrefixReader,
  readJsonChar,
  startJsonPrefix,
} from './json-prefix-reader.js';
import { isWhitespace } from './text-scanning.js';

/** @internal The tag that opens a Llama `<|python_tag|>` reply (its only `<` is its first character). */
export const PYTHON_TAG = '<|python_tag|>';

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
 * @internal How a reply's start (or the start of the answer after a leading reasoning region) is read: a
 * whole-response JSON reading needs it to be `{`, `[`, `<|python_tag|>` or one fence around such a value.
 * Read one character at a time (each examined once, nothing re-read), as `readBareJson` reads a whole
 * response: leading whitespace as `trim` skips it, then `{`, `<|python_tag|>`, a strict JSON array, or
 * a fence (three or more of one of `` ` `` or `~`, its line to the newline, then whitespace) around one.
 */
export interface StartReader {
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

/** @internal A reader at a reply's first character. */
export function newStartReader(): StartReader {
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

/** @internal Reads `raw` on from where the reader stopped; returns the characters examined. */
export function readStart(reader: StartReader, raw: string): number {
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
