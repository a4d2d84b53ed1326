import type { JsonSchema } from '@tiny/tools';
import { type AnswerRepairs, pointerSegment } from './answer-repairs.js';
import { acceptsString, answerTypes, itemSchema, propertySchema } from './answer-schema.js';

/** Containers nested deeper than this refuse the candidate (the answer is not read, nothing overflows). */
const MAX_DEPTH = 128;
/** Characters a lookahead for `, key:` inspects at most, so an unquoted value is read in linear time. */
const MAX_KEY_LOOKAHEAD = 256;

const FAIL: unique symbol = Symbol('fail');
const MISSING: unique symbol = Symbol('missing');
type Read = unknown | typeof FAIL | typeof MISSING;

type Context = 'root' | 'object' | 'array';

interface Reader {
  readonly text: string;
  pos: number;
  readonly root: JsonSchema;
  readonly repairs: AnswerRepairs;
  /** The text ended inside a value or container. */
  truncated: boolean;
  depth: number;
  /** Repair kinds recorded once per answer (comments, escapes). */
  readonly once: Set<string>;
  /** Cross-type readings allowed (`coerce: 'lenient'`): digits as a string, digit grouping. */
  readonly lenient: boolean;
  /** Where the last `}` of the text is (-1: none): an object still open past it is never closed. */
  readonly lastBrace: number;
}

/** What {@link readAnswerValue} read. @internal */
export interface AnswerValue {
  readonly value: unknown;
  /** The text ended before the value did; containers and strings were closed. */
  readonly truncated: boolean;
}

function isSpace(code: number): boolean {
  return code === 10 || code === 13 || isInlineSpace(code);
}

/**
 * Space within a line: space, tab, and the Unicode spaces a model or an editor writes (no-break
 * space, BOM, the U+2000 block, narrow no-break, ideographic), so `12\u00a0}` ends the number 12.
 */
function isInlineSpace(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 0xa0 ||
    code === 0xfeff ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function isWordStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

function isWordPart(code: number): boolean {
  return isWordStart(code) || (code >= 48 && code <= 57);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function noteOnce(reader: Reader, kind: string): void {
  if (reader.once.has(kind)) return;
  reader.once.add(kind);
  reader.repairs.add(kind);
}

/**
 * Skips whitespace and `//` / `/* *\/` / `#` comments (a `#` after a space or at the start, then a
 * space or the line end, as in YAML or Python: `"a" # note`; `#1` and `a#b` are not comments).
 */
function skipSpace(reader: Reader): void {
  const { text } = reader;
  for (;;) {
    while (reader.pos < text.length && isSpace(text.charCodeAt(reader.pos))) reader.pos++;
    const code = text.charCodeAt(reader.pos);
    const next = text.charCodeAt(reader.pos + 1);
    if (
      code === 35 &&
      (reader.pos === 0 || isSpace(text.charCodeAt(reader.pos - 1))) &&
      startsHashComment(text, reader.pos)
    ) {
      const end = text.indexOf('\n', reader.pos);
      reader.pos = end < 0 ? text.length : end + 1;
      noteOnce(reader, 'removed_comment');
    } else if (code === 47 && next === 47) {
      const end = text.indexOf('\n', reader.pos);
      reader.pos = end < 0 ? text.length : end + 1;
      noteOnce(reader, 'removed_comment');
    } else if (code === 47 && next === 42) {
      const end = text.indexOf('*/', reader.pos + 2);
      reader.pos = end < 0 ? text.length : end + 2;
      noteOnce(reader, 'removed_comment');
    } else {
      return;
    }
  }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Whether a value can start at `code` (a quote, a bracket, a digit or sign, a literal's letter). */
function startsValue(code: number): boolean {
  return (
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 123 ||
    code === 91 ||
    code === 45 ||
    isDigit(code) ||
    code === 116 || // t(rue)
    code === 102 || // f(alse)
    code === 110 || // n(ull)
    code === 84 || // T(rue)
    code === 70 || // F(alse)
    code === 78 // N(one)
  );
}

/**
 * Whether a quote at `closeEnd - 1` closes its string: what follows (spaces/tabs skipped) ends a
 * value. A `,` ends it only when the next entry follows (`"key":` in an object, a value in an
 * array, or the end of the text), so `"She said "hi", then left"` keeps its inner quotes.
 */
function closesString(text: string, closeEnd: number, context: Context): boolean {
  let at = closeEnd;
  while (isInlineSpace(text.charCodeAt(at))) at++;
  if (at >= text.length) return true;
  const code = text.charCodeAt(at);
  if (code === 44) {
    if (context === 'root') return true;
    let next = at + 1;
    while (next < text.length && isSpace(text.charCodeAt(next))) next++;
    if (next >= text.length) return true;
    if (context === 'object') return keyFollows(text, at + 1);
    const following = text.charCodeAt(next);
    return startsValue(following) || following === 93 || startsComment(text, next);
  }
  // The comma is missing before the next item (`["a" "b"]`) or key (`"x""key": 1`).
  if (code === 34) return context === 'array' ? at > closeEnd : context === 'object' && quotedKeyFollows(text, at);
  // A closing fence right after the value (`{"key": "value"```).
  if (code === 96) return text.startsWith('```', at);
  // `/` starts a comment after the value (`'text' /* note */`), and so does ` # ` after a space.
  if (code === 47) return startsComment(text, at);
  if (code === 35) return at > closeEnd && startsHashComment(text, at);
  return code === 125 || code === 93 || code === 58 || code === 10 || code === 13;
}

/**
 * The lines of a block (triple-quoted or fenced value) without their common indentation, blank
 * lines at either end, or trailing spaces.
 */
function dedentBlock(raw: string, dropFirstLine: boolean): string {
  const lines = raw.split(/\r?\n/);
  if (dropFirstLine) lines.shift();
  // Blank lines after the opener and before the closer are layout, not content.
  while (lines.length > 1 && (lines[0] as string).trim() === '') lines.shift();
  while (lines.length > 1 && (lines[lines.length - 1] as string).trim() === '') lines.pop();
  let indent = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const width = line.length - line.trimStart().length;
    if (width < indent) indent = width;
  }
  if (!Number.isFinite(indent)) indent = 0;
  return lines.map((line) => (line.trim() === '' ? '' : line.slice(indent).trimEnd())).join('\n');
}

/**
 * A `"""triple-quoted"""` value, read as a block: no escapes, quotes inside are content, a
 * line break after the opener and a blank last line are dropped, common indentation removed.
 */
function readTripleQuoted(reader: Reader, path: string): string {
  const { text } = reader;
  const start = reader.pos + 3;
  const end = text.indexOf('"""', start);
  reader.repairs.add('triple_quoted_string', path);
  if (end < 0) {
    reader.pos = text.length;
    reader.truncated = true;
    return text.slice(start);
  }
  reader.pos = end + 3;
  const raw = text.slice(start, end);
  return raw.includes('\n') ? dedentBlock(raw, false) : raw;
}

/**
 * A fenced block written as a value (`"code": ```ts main.ts` … a closing ``` line): the opener's
 * info string (language, path) is discarded, the body is dedented, and everything up to a line
 * that starts with the closing fence is content, brackets and quotes included.
 */
function readFencedValue(reader: Reader, path: string): string {
  const { text } = reader;
  let run = 0;
  while (text.charCodeAt(reader.pos + run) === 96) run++;
  const bodyStart = reader.pos + run;
  const lineEnd = text.indexOf('\n', bodyStart);
  reader.repairs.add('fenced_string', path);
  // One line: ```code``` closes on the same line.
  const sameLine = text.indexOf('`'.repeat(run), bodyStart);
  if (sameLine >= 0 && (lineEnd < 0 || sameLine < lineEnd)) {
    reader.pos = sameLine + run;
    return text.slice(bodyStart, sameLine);
  }
  if (lineEnd < 0) {
    reader.pos = text.length;
    reader.truncated = true;
    return '';
  }
  let lineStart = lineEnd + 1;
  while (lineStart < text.length) {
    const next = text.indexOf('\n', lineStart);
    const end = next < 0 ? text.length : next;
    let at = lineStart;
    while (at < end && isInlineSpace(text.charCodeAt(at))) at++;
    let ticks = 0;
    while (text.charCodeAt(at + ticks) === 96) ticks++;
    // The closing fence may share its line with what follows the value (```, "next": 1}).
    if (ticks >= run && /^[ \t\r]*(?:[,}\]]|$)/.test(text.slice(at + ticks, end))) {
      reader.pos = at + ticks;
      return dedentBlock(text.slice(lineEnd + 1, lineStart), false);
    }
    if (next < 0) break;
    lineStart = next + 1;
  }
  reader.pos = text.length;
  reader.truncated = true;
  return dedentBlock(text.slice(lineEnd + 1), false);
}

/** A `` `backtick` `` string: no escapes; an inner backtick that does not end a value is content. */
function readBacktickString(reader: Reader, path: string, context: Context): string {
  const { text } = reader;
  const start = ++reader.pos;
  reader.repairs.add('backtick_string', path);
  for (let at = start; at < text.length; at++) {
    if (text.charCodeAt(at) === 96 && closesString(text, at + 1, context)) {
      reader.pos = at + 1;
      return text.slice(start, at);
    }
  }
  reader.pos = text.length;
  reader.truncated = true;
  return text.slice(start);
}

/** JSON's one-letter escapes, in a `Map` (text never looks anything up on `Object.prototype`). */
const escapes: ReadonlyMap<string, string> = new Map([
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['b', '\b'],
  ['f', '\f'],
  ['/', '/'],
  ['\\', '\\'],
]);

/** Reads a quoted string starting at the quote; tolerates inner unescaped quotes and a cut end. */
function readString(reader: Reader, path: string, context: Context): string {
  const { text } = reader;
  const quote = text.charCodeAt(reader.pos);
  const chunks: string[] = [];
  let from = ++reader.pos;
  let strayQuotes = false;
  while (reader.pos < text.length) {
    const code = text.charCodeAt(reader.pos);
    if (code === 92) {
      chunks.push(text.slice(from, reader.pos));
      const escaped = text[reader.pos + 1];
      if (escaped === undefined) {
        reader.pos = text.length;
        from = reader.pos;
        break;
      }
      // A `\u` escape cut by the end of the text is dropped (the answer stopped inside it).
      if (escaped === 'u' && text.length - reader.pos <= 5 && /^[0-9a-fA-F]{0,3}$/.test(text.slice(reader.pos + 2))) {
        reader.pos = text.length;
        from = reader.pos;
        break;
      }
      if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(reader.pos + 2, reader.pos + 6))) {
        chunks.push(String.fromCharCode(Number.parseInt(text.slice(reader.pos + 2, reader.pos + 6), 16)));
        reader.pos += 6;
      } else if (escaped === '"' || escaped === "'") {
        chunks.push(escaped);
        reader.pos += 2;
      } else if (escapes.has(escaped)) {
        chunks.push(escapes.get(escaped) as string);
        reader.pos += 2;
      } else {
        // Only the escapes of JSON are escapes: `C:\Users` keeps its backslash.
        chunks.push(`\\${escaped}`);
        reader.pos += 2;
        noteOnce(reader, 'kept_invalid_escape');
      }
      from = reader.pos;
      continue;
    }
    if (code === quote) {
      if (closesString(text, reader.pos + 1, context)) {
        chunks.push(text.slice(from, reader.pos));
        reader.pos++;
        return chunks.join('');
      }
      reader.repairs.add('kept_inner_quote', path);
      strayQuotes = true;
    }
    // `"New York, "gender": "male"`: the closing quote is missing before `, "key":`.
    if (code === 44 && quote === 34 && context === 'object' && quotedKeyFollows(text, reader.pos + 1)) {
      chunks.push(text.slice(from, reader.pos));
      reader.repairs.add('inserted_missing_quote', path);
      return chunks.join('').trimEnd();
    }
    reader.pos++;
  }
  // The text ends inside a string whose quotes are already astray (`{"key": "lorem "sic" ...}`):
  // when its last character closes the container the string is in, the string lacked only its
  // closing quote. With no stray quote the answer was cut (`{"bar": "foo}` keeps its brace).
  const closer = !strayQuotes ? 0 : context === 'object' ? 125 : context === 'array' ? 93 : 0;
  let last = text.length - 1;
  while (last >= from && isSpace(text.charCodeAt(last))) last--;
  if (closer !== 0 && last >= from && text.charCodeAt(last) === closer) {
    chunks.push(text.slice(from, last));
    reader.pos = last;
    reader.repairs.add('inserted_missing_quote', path);
    return chunks.join('').trimEnd();
  }
  chunks.push(text.slice(from, reader.pos));
  reader.truncated = true;
  return chunks.join('');
}

/** After the whole answer's object closed: do `, "key":` entries follow (it closed too early)? */
function closedEarly(text: string, from: number): boolean {
  let at = from;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return text.charCodeAt(at) === 44 && quotedKeyFollows(text, at + 1);
}

/** After `,`: does a double-quoted key (then `:`) follow? */
function quotedKeyFollows(text: string, from: number): boolean {
  let at = from;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) !== 34) return false;
  // Bounded: a key is short, and this runs at many commas and quotes.
  const limit = Math.min(text.length, at + MAX_KEY_LOOKAHEAD);
  let end = at + 1;
  while (end < limit && text.charCodeAt(end) !== 34) end++;
  if (end >= limit) return false;
  let colon = end + 1;
  while (isInlineSpace(text.charCodeAt(colon))) colon++;
  return text.charCodeAt(colon) === 58;
}

/**
 * After `,` inside an object: does a key (then `:`), the closing brace, or a key cut by the end of
 * the text follow? Bounded lookahead.
 */
function keyFollows(text: string, from: number): boolean {
  let at = from;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  const code = text.charCodeAt(at);
  if (code === 125) return true;
  const limit = Math.min(text.length, at + MAX_KEY_LOOKAHEAD);
  if (code === 34 || code === 39) {
    at++;
    while (at < limit && text.charCodeAt(at) !== code) at++;
    at++;
  } else if (isWordPart(code)) {
    // Keys such as `first-name`, `user.id` or `5` too.
    while (at < limit && (isWordPart(text.charCodeAt(at)) || text.charCodeAt(at) === 45 || text.charCodeAt(at) === 46))
      at++;
  } else {
    return false;
  }
  // A key cut by the end of the text is still a key (the answer stopped mid-entry).
  if (at >= text.length) return true;
  const wordEnd = at;
  while (at < limit && isInlineSpace(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) === 58) return true;
  // A stray word, then a quoted key (`, COMMENT "value_2": ...`): the entry still follows.
  return isWordStart(code) && at > wordEnd && quotedKeyFollows(text, at);
}

/** An unquoted string value: up to the end of the line or the container's next separator. */
function readUnquoted(reader: Reader, context: Context, path: string): string | typeof FAIL {
  const { text } = reader;
  const start = reader.pos;
  let at = start;
  // Brackets opened inside the value (`words{in brackets}`) are closed inside it too.
  let brackets = 0;
  // Commas inside parentheses (`f(a: number, b: string)`) do not end the value.
  let parens = 0;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 123 || code === 91) brackets++;
    else if (code === 40) parens++;
    else if ((code === 125 || code === 93) && brackets > 0) {
      brackets--;
      continue;
    } else if (code === 41 && parens > 0) parens--;
    if ((brackets > 0 || parens > 0) && code === 44) continue;
    if (code === 10 || code === 13) {
      // In an object that closes later, a value runs on over lines until a key or the brace.
      if (context !== 'object' || at >= reader.lastBrace || keyFollows(text, at + 1)) break;
      continue;
    }
    if (context === 'array' && (code === 44 || code === 93)) break;
    if (context === 'object' && (code === 125 || (code === 44 && keyFollows(text, at + 1)))) break;
    // `{"key": value "key2": "value2"}`: a quoted key after the value, the comma missing.
    // Not inside a bracket the value opened: `see the example {"age": 1}` is the value's text.
    if (context === 'object' && code === 34 && at > start && brackets === 0 && keyFollows(text, at)) break;
  }
  let value = text.slice(start, at).trim();
  if (value === '') return FAIL;
  if (at >= text.length) reader.truncated = true;
  reader.pos = at;
  reader.repairs.add('unquoted_string', path);
  // `"words": abcdef",`: only the opening quote was missing.
  if (value.length > 1 && value.endsWith('"') && !value.slice(0, -1).includes('"')) {
    value = value.slice(0, -1).trimEnd();
    reader.repairs.add('inserted_missing_quote', path);
  }
  return value;
}

const numberPattern = /[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?/y;
/** `12,111` or `12,111.5`: digit grouping, read only for a whole answer (in a list the commas separate). */
const groupedNumberPattern = /[-+]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?/y;

/** Whether the character at `index` (spaces and tabs skipped) ends a scalar: a separator, a line end, the end. */
function endsScalar(text: string, index: number): boolean {
  let at = index;
  while (isInlineSpace(text.charCodeAt(at))) at++;
  if (at >= text.length) return true;
  const code = text.charCodeAt(at);
  // `/` only when it starts a comment (`1/3` is text, not the number 1).
  if (code === 47) return startsComment(text, at);
  if (code === 35) return at > index && startsHashComment(text, at);
  // A quote after the scalar starts the next entry, its comma missing (`"a": 1 "b": 2`).
  return code === 44 || code === 125 || code === 93 || code === 10 || code === 13 || code === 34;
}

/** Whether the `#` at `at` is followed by a space or the end of its line (a `#` comment's start). */
function startsHashComment(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  return at + 1 >= text.length || next === 10 || next === 13 || isInlineSpace(next);
}

/** Whether `//` or `/*` starts at `at`. */
function startsComment(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  return text.charCodeAt(at) === 47 && (next === 47 || next === 42);
}

/** JSON literals a cut answer may end inside (each first letter names one). */
const cutLiterals = ['true', 'false', 'null'] as const;

/**
 * The literal words, JSON's and Python's. A `Map` keyed by the word the model wrote: a plain
 * object would answer `constructor`, `toString` or `__proto__` from `Object.prototype`.
 */
const literals: ReadonlyMap<string, { readonly value: unknown; readonly python: boolean }> = new Map([
  ['true', { value: true, python: false }],
  ['false', { value: false, python: false }],
  ['null', { value: null, python: false }],
  ['True', { value: true, python: true }],
  ['False', { value: false, python: true }],
  ['None', { value: null, python: true }],
]);

function readValue(reader: Reader, schema: JsonSchema | undefined, path: string, context: Context): Read {
  skipSpace(reader);
  const { text, root } = reader;
  if (reader.pos >= text.length) {
    reader.truncated = true;
    return MISSING;
  }
  const code = text.charCodeAt(reader.pos);
  if (code === 123) return readObject(reader, schema, path);
  if (code === 91) return readArray(reader, schema, path);
  if (code === 34) {
    if (text.startsWith('"""', reader.pos)) return readTripleQuoted(reader, path);
    return readString(reader, path, context);
  }
  // A whole answer in backticks or a fence is a code block around the answer, read by the caller
  // (candidates, the bare text), not a string value: only inside a container are these strings.
  if (code === 96) {
    if (context === 'root') return FAIL;
    return text.startsWith('```', reader.pos)
      ? readFencedValue(reader, path)
      : readBacktickString(reader, path, context);
  }
  const stringSlot = acceptsString(root, schema);
  if (code === 39) {
    if (!stringSlot) return FAIL;
    reader.repairs.add('single_quoted_string', path);
    return readString(reader, path, context);
  }
  const types = answerTypes(root, schema);
  const numericSlot = types === undefined || types.includes('number') || types.includes('integer');
  if (isDigit(code) || code === 45 || code === 43 || code === 46) {
    // Digits where only a string may stand are a number the model wrote, not text (a validation
    // error), unless cross-type coercion is on or more text follows on the line (`12 Main St`).
    const numberToken = isNumberToken(text, reader.pos);
    if (stringSlot && !numericSlot && (reader.lenient || !numberToken)) {
      if (context === 'root') return FAIL;
      const read = readUnquoted(reader, context, path);
      // A whole number read as a string's text is a cross-type reading: listed as such.
      if (numberToken && read !== FAIL) reader.repairs.add('coerced_to_string', path);
      return read;
    }
    if (context === 'root' && reader.lenient) {
      groupedNumberPattern.lastIndex = reader.pos;
      const grouped = groupedNumberPattern.exec(text);
      if (grouped !== null && endsScalar(text, reader.pos + grouped[0].length)) {
        reader.pos += grouped[0].length;
        reader.repairs.add('removed_digit_grouping', path);
        return Number(grouped[0].replaceAll(',', ''));
      }
    }
    numberPattern.lastIndex = reader.pos;
    const match = numberPattern.exec(text);
    // A number cut inside its exponent or after its dot at the end of the text (`2.5e-`, `12.e`).
    const tailStart = match === null ? text.length : reader.pos + match[0].length;
    const cutTail = text.length - tailStart <= 3 && /^\.?[eE][-+]?$/.test(text.slice(tailStart));
    // `1e }`: an exponent with no digits before the end of the scalar is dropped.
    const bareExponent = match === null ? null : /^[eE][-+]?/.exec(text.slice(tailStart, tailStart + 2));
    if (match !== null && !cutTail && bareExponent !== null && endsScalar(text, tailStart + bareExponent[0].length)) {
      const number = Number(match[0]);
      if (Number.isFinite(number)) {
        reader.pos = tailStart + bareExponent[0].length;
        reader.repairs.add('normalized_number', path);
        return number;
      }
    }
    if (match !== null && (endsScalar(text, reader.pos + match[0].length) || cutTail)) {
      const number = Number(match[0]);
      // `007` and integers past 2^53 do not come back as written: where a string may stand the
      // exact text is kept; a leading zero is dropped (and listed) only where a number must
      // stand, and an integer that would be rounded is refused there.
      const leadingZero = /^[-+]?0[0-9]/.test(match[0]);
      const rounded = isRoundedInteger(match[0], number);
      if ((leadingZero || rounded) && Number.isFinite(number)) {
        if (stringSlot && context !== 'root') return readUnquoted(reader, context, path);
        if (rounded) return FAIL;
      }
      if (Number.isFinite(number)) {
        reader.pos += match[0].length;
        if (leadingZero) reader.repairs.add('normalized_number', path);
        if (cutTail) {
          reader.pos = text.length;
          reader.truncated = true;
        }
        if (match[0].startsWith('+') || match[0].endsWith('.') || match[0].startsWith('.')) {
          reader.repairs.add('normalized_number', path);
        }
        return number;
      }
    }
    return stringSlot && context !== 'root' ? readUnquoted(reader, context, path) : FAIL;
  }
  if (isWordStart(code)) {
    let end = reader.pos;
    while (end < text.length && isWordPart(text.charCodeAt(end))) end++;
    const literal = literals.get(text.slice(reader.pos, end));
    // A whole answer that is the word `None` where a string may stand is that word, not null.
    const wordIsTheAnswer = literal?.python === true && context === 'root' && stringSlot;
    if (literal !== undefined && !wordIsTheAnswer && endsScalar(text, end)) {
      reader.pos = end;
      if (literal.python) reader.repairs.add('python_literal', path);
      return literal.value;
    }
    // The text ends inside a JSON literal (`nul`, `t`, `fals`) where no string may stand.
    const word = text.slice(reader.pos, end);
    const cut = end >= text.length && !stringSlot ? cutLiterals.find((name) => name.startsWith(word)) : undefined;
    if (cut !== undefined) {
      reader.pos = end;
      reader.truncated = true;
      return literals.get(cut)?.value;
    }
  }
  return stringSlot && context !== 'root' ? readUnquoted(reader, context, path) : FAIL;
}

/**
 * Whether `token`, an integer's digits, does not come back as `number` (past 2^53 `Number` rounds:
 * `12345678901234567890` → `12345678901234567000`). Overflowing tokens are not finite: not here.
 */
function isRoundedInteger(token: string, number: number): boolean {
  if (Number.isSafeInteger(number) || !Number.isFinite(number) || !/^[-+]?[0-9]+$/.test(token)) return false;
  return BigInt(token.startsWith('+') ? token.slice(1) : token) !== BigInt(number);
}

/** Whether a whole number token (then the end of a scalar) starts at `from`. */
function isNumberToken(text: string, from: number): boolean {
  numberPattern.lastIndex = from;
  const match = numberPattern.exec(text);
  return match !== null && endsScalar(text, from + match[0].length);
}

/** An object key: quoted, or bare up to `:`. */
function readKey(reader: Reader, path: string): string | typeof FAIL {
  const { text } = reader;
  const code = text.charCodeAt(reader.pos);
  if (code === 34) return readString(reader, path, 'root');
  if (code === 39) {
    reader.repairs.add('single_quoted_key', path);
    return readString(reader, path, 'root');
  }
  const start = reader.pos;
  let at = start;
  for (; at < text.length; at++) {
    const part = text.charCodeAt(at);
    if (part === 58 || isSpace(part) || part === 44 || part === 123 || part === 125 || part === 91 || part === 93)
      break;
    if (part === 34 || part === 39) return FAIL;
  }
  if (at === start) return FAIL;
  reader.pos = at;
  const key = text.slice(start, at);
  reader.repairs.add('unquoted_key', `${path}/${pointerSegment(key)}`);
  return key;
}

function startsKey(code: number): boolean {
  return code === 34 || code === 39 || isWordStart(code);
}

function readObject(reader: Reader, schema: JsonSchema | undefined, path: string): Read {
  if (++reader.depth > MAX_DEPTH) return FAIL;
  const { text, root } = reader;
  const result: Record<string, unknown> = {};
  reader.pos++;
  let expectingEntry = true;
  for (;;) {
    skipSpace(reader);
    if (reader.pos >= text.length) break;
    const code = text.charCodeAt(reader.pos);
    if (code === 125) {
      // The whole answer's object closed early, more entries follow: `{"a": 1}, "b": 2}`.
      if (reader.depth === 1 && closedEarly(text, reader.pos + 1)) {
        reader.repairs.add('removed_stray_brace', path);
        reader.pos++;
        continue;
      }
      if (expectingEntry && Object.keys(result).length > 0) reader.repairs.add('removed_trailing_comma', path);
      reader.pos++;
      reader.depth--;
      return result;
    }
    if (code === 93 && reader.depth > 1) {
      // `[{"key": "value"], ...`: the object's brace is missing; the `]` is the list's.
      reader.repairs.add('inserted_missing_brace', path);
      reader.depth--;
      return result;
    }
    if (code === 44) {
      reader.pos++;
      if (expectingEntry) reader.repairs.add('removed_extra_comma', path);
      expectingEntry = true;
      continue;
    }
    // A stray word before a quoted key (`, COMMENT "value_2": ...`) is not part of the answer.
    if (isWordStart(code)) {
      let end = reader.pos;
      while (end < text.length && isWordPart(text.charCodeAt(end))) end++;
      let after = end;
      while (isInlineSpace(text.charCodeAt(after))) after++;
      if (text.charCodeAt(after) !== 58 && after > end && quotedKeyFollows(text, after)) {
        reader.repairs.add('dropped_stray_text', path);
        reader.pos = end;
        continue;
      }
    }
    // An object never closed whose next entry is prose (no `key:`) ends where the prose starts:
    // `{"pointer": {pointer: null,\n\nAnything else?` is the object, then the model's chatter.
    if (reader.pos > reader.lastBrace && !keyFollows(text, reader.pos)) {
      reader.repairs.add('dropped_trailing_prose', path);
      reader.pos = text.length;
      break;
    }
    if (!expectingEntry) {
      if (!startsKey(code)) return FAIL;
      reader.repairs.add('inserted_missing_comma', path);
    }
    const key = readKey(reader, path);
    if (key === FAIL) return FAIL;
    if (reader.truncated) break;
    skipSpace(reader);
    if (reader.pos >= text.length) break;
    if (text.charCodeAt(reader.pos) !== 58) return FAIL;
    reader.pos++;
    const childPath = `${path}/${pointerSegment(key)}`;
    const value = readValue(reader, propertySchema(root, schema, key), childPath, 'object');
    if (value === FAIL) return FAIL;
    if (value === MISSING) break;
    // A key written twice: the first is the answer's, a later one is most often a quoted example
    // (`"note": see {"age": 1}`) and never replaces it silently.
    if (Object.hasOwn(result, key)) reader.repairs.add('dropped_duplicate_key', childPath);
    else setOwn(result, key, value);
    expectingEntry = false;
    if (reader.truncated) break;
  }
  reader.truncated = true;
  reader.depth--;
  return result;
}

function readArray(reader: Reader, schema: JsonSchema | undefined, path: string): Read {
  if (++reader.depth > MAX_DEPTH) return FAIL;
  const { text, root } = reader;
  const result: unknown[] = [];
  reader.pos++;
  let expectingItem = true;
  for (;;) {
    skipSpace(reader);
    if (reader.pos >= text.length) break;
    const code = text.charCodeAt(reader.pos);
    if (code === 93) {
      if (expectingItem && result.length > 0) reader.repairs.add('removed_trailing_comma', path);
      reader.pos++;
      reader.depth--;
      return result;
    }
    if (code === 125) {
      // A `}` in a list: stray in the whole answer's list (`[{...}},{...}]`), else the list's own
      // `]` is missing before its object closes (`{"a": [1, 2}, "b": 3}`).
      if (reader.depth === 1) {
        reader.repairs.add('removed_stray_brace', path);
        reader.pos++;
        continue;
      }
      reader.repairs.add('inserted_missing_bracket', path);
      reader.depth--;
      return result;
    }
    if (code === 44) {
      reader.pos++;
      if (expectingItem) reader.repairs.add('removed_extra_comma', path);
      expectingItem = true;
      continue;
    }
    // `[1, 2, ...]`: an ellipsis the model wrote for items it left out is not an item.
    const ellipsis = text.startsWith('...', reader.pos) ? 3 : code === 0x2026 ? 1 : 0;
    if (ellipsis > 0 && /^[ \t]*[,\]]/.test(text.slice(reader.pos + ellipsis, reader.pos + ellipsis + 64))) {
      reader.repairs.add('dropped_ellipsis', path);
      reader.pos += ellipsis;
      continue;
    }
    if (!expectingItem) {
      if (code !== 123 && code !== 91 && code !== 34 && code !== 39 && code !== 96) return FAIL;
      reader.repairs.add('inserted_missing_comma', path);
    }
    const value = readValue(reader, itemSchema(root, schema, result.length), `${path}/${result.length}`, 'array');
    if (value === FAIL) return FAIL;
    if (value === MISSING) break;
    result.push(value);
    expectingItem = false;
    if (reader.truncated) break;
  }
  reader.truncated = true;
  reader.depth--;
  return result;
}

/**
 * Reads one JSON-like value that fills all of `text` (surrounding whitespace aside), guided by
 * `root`: single-quoted and unquoted strings only where the schema says a string may stand,
 * unquoted keys, comments, extra and missing commas, Python `True`/`False`/`None`, inner quotes
 * that do not end a value, backtick, triple-quoted and fenced string values inside containers,
 * the slips of {@link parseWithSchema}'s list, and a value cut off at the end (open strings and
 * containers are closed, a dangling key is dropped). `lenient` allows cross-type readings (digits
 * as a string, digit grouping). Each repair goes to `repairs`. Returns `undefined` when the text
 * is not such a value (or nests deeper than 128). Linear in the text: every lookahead is bounded.
 * @internal
 */
export function readAnswerValue(
  text: string,
  root: JsonSchema,
  repairs: AnswerRepairs,
  lenient = false,
): AnswerValue | undefined {
  const reader: Reader = {
    text,
    pos: 0,
    root,
    repairs,
    truncated: false,
    depth: 0,
    once: new Set(),
    lenient,
    lastBrace: text.lastIndexOf('}'),
  };
  const value = readValue(reader, root, '', 'root');
  if (value === FAIL || value === MISSING) return undefined;
  skipSpace(reader);
  // A closing fence with no opener after the value (`{"key": "value"}```).
  if (reader.pos < text.length && /^`{3,}\s*$/.test(text.slice(reader.pos, reader.pos + 64))) {
    repairs.add('removed_stray_fence');
    reader.pos = text.length;
  }
  if (reader.pos < text.length) return undefined;
  return { value, truncated: reader.truncated };
}
