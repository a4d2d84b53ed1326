/**
 * @internal A strict JSON container read one character at a time, for text that arrives in pieces:
 * each character is examined once, and the state is kept between pieces (nothing is re-read).
 * It accepts exactly the prefixes `scanJsonValue` accepts (what `JSON.parse` accepts, numbers and
 * literals included) and breaks at the same character, so a reading that resumes after a break
 * resumes where the batch reading does.
 */
export interface JsonPrefixReader {
  /** Absolute position of the opening `{` or `[`. */
  readonly open: number;
  /** The outermost containers inside that closed, as absolute `[start, end)` spans, in order. */
  readonly closed: Array<readonly [number, number]>;
  kinds: number[];
  starts: number[];
  state: number;
  mode: number;
  /** Inside a string: whether it is a key; hex digits of a `\u` escape still due. */
  key: boolean;
  hex: number;
  /** Inside a number, where in its grammar; inside a literal, the characters of it matched so far. */
  step: number;
  /** The literal being read (`true`, `false`, `null`). */
  literal: string;
}

const VALUE = 0;
const ARRAY_VALUE_OR_END = 1;
const KEY_OR_END = 2;
const KEY = 3;
const COLON = 4;
const AFTER_VALUE = 5;
const PLAIN = 0;
const STRING = 1;
const ESCAPE = 2;
const NUMBER = 3;
const LITERAL = 4;
/** Number steps: after `-`, after a leading `0`, in the integer digits, after `.`, in the fraction, after `e`, after its sign, in its digits. */
const AFTER_MINUS = 0;
const AFTER_ZERO = 1;
const INTEGER = 2;
const AFTER_DOT = 3;
const FRACTION = 4;
const AFTER_E = 5;
const AFTER_E_SIGN = 6;
const EXPONENT = 7;
const OBJECT = 1;
const ARRAY = 2;

/** The reading went on. */
export const JSON_GOING = 0;
/** The container closed at the character read. */
export const JSON_COMPLETE = 1;
/** Strict JSON broke at the character read. */
export const JSON_BROKEN = -1;

/** Starts reading at the `{` or `[` at absolute position `open` (the character itself is read by `readJsonChar`). */
export function startJsonPrefix(open: number): JsonPrefixReader {
  return {
    open,
    closed: [],
    kinds: [],
    starts: [],
    state: VALUE,
    mode: PLAIN,
    key: false,
    hex: 0,
    step: 0,
    literal: '',
  };
}

/** Reads the character `code` at absolute position `at`: {@link JSON_GOING}, {@link JSON_COMPLETE} or {@link JSON_BROKEN}. */
export function readJsonChar(reader: JsonPrefixReader, code: number, at: number): number {
  if (reader.mode === STRING) {
    if (code === 92) reader.mode = ESCAPE;
    else if (code === 34) {
      reader.mode = PLAIN;
      reader.state = reader.key ? COLON : AFTER_VALUE;
    } else if (code < 32) return JSON_BROKEN;
    return JSON_GOING;
  }
  if (reader.mode === ESCAPE) {
    if (reader.hex > 0) {
      if (!isHex(code)) return JSON_BROKEN;
      reader.hex--;
      if (reader.hex === 0) reader.mode = STRING;
      return JSON_GOING;
    }
    if (code === 117) {
      reader.hex = 4;
      return JSON_GOING;
    }
    if (!isEscape(code)) return JSON_BROKEN;
    reader.mode = STRING;
    return JSON_GOING;
  }
  if (reader.mode === LITERAL) {
    if (code !== reader.literal.charCodeAt(reader.step)) return JSON_BROKEN;
    reader.step++;
    if (reader.step === reader.literal.length) {
      reader.mode = PLAIN;
      reader.state = AFTER_VALUE;
    }
    return JSON_GOING;
  }
  if (reader.mode === NUMBER) {
    const step = readNumberChar(reader.step, code);
    if (step === BROKEN_STEP) return JSON_BROKEN;
    if (step !== ENDED_STEP) {
      reader.step = step;
      return JSON_GOING;
    }
    // The number ended before this character, which is read as what follows a value.
    reader.mode = PLAIN;
    reader.state = AFTER_VALUE;
  }
  if (code === 32 || code === 10 || code === 13 || code === 9) return JSON_GOING;
  const top = reader.kinds[reader.kinds.length - 1];
  switch (reader.state) {
    case VALUE:
    case ARRAY_VALUE_OR_END:
      if (code === 93 && reader.state === ARRAY_VALUE_OR_END) return close(reader, at);
      if (code === 123 || code === 91) {
        reader.kinds.push(code === 123 ? OBJECT : ARRAY);
        reader.starts.push(at);
        reader.state = code === 123 ? KEY_OR_END : ARRAY_VALUE_OR_END;
        return JSON_GOING;
      }
      if (reader.kinds.length === 0) return JSON_BROKEN;
      if (code === 34) {
        reader.mode = STRING;
        reader.key = false;
        return JSON_GOING;
      }
      if (code === 45 || (code >= 48 && code <= 57)) {
        reader.mode = NUMBER;
        reader.step = code === 45 ? AFTER_MINUS : code === 48 ? AFTER_ZERO : INTEGER;
        return JSON_GOING;
      }
      if (code === 116 || code === 102 || code === 110) {
        reader.mode = LITERAL;
        reader.literal = code === 116 ? 'true' : code === 102 ? 'false' : 'null';
        reader.step = 1;
        return JSON_GOING;
      }
      return JSON_BROKEN;
    case KEY_OR_END:
    case KEY:
      if (code === 125 && reader.state === KEY_OR_END) return close(reader, at);
      if (code !== 34) return JSON_BROKEN;
      reader.mode = STRING;
      reader.key = true;
      return JSON_GOING;
    case COLON:
      if (code !== 58) return JSON_BROKEN;
      reader.state = VALUE;
      return JSON_GOING;
    default:
      if (code === 44) {
        reader.state = top === OBJECT ? KEY : VALUE;
        return JSON_GOING;
      }
      if ((code === 125 && top === OBJECT) || (code === 93 && top === ARRAY)) return close(reader, at);
      return JSON_BROKEN;
  }
}

function close(reader: JsonPrefixReader, at: number): number {
  reader.kinds.pop();
  const start = reader.starts.pop() ?? reader.open;
  if (reader.kinds.length === 0) return JSON_COMPLETE;
  // Only the outermost closed containers are kept: one closing around earlier ones replaces them.
  const { closed } = reader;
  while (closed.length > 0 && (closed[closed.length - 1]?.[0] ?? -1) > start) closed.pop();
  closed.push([start, at + 1]);
  reader.state = AFTER_VALUE;
  return JSON_GOING;
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`. */
function isEscape(code: number): boolean {
  return (
    code === 34 ||
    code === 92 ||
    code === 47 ||
    code === 98 ||
    code === 102 ||
    code === 110 ||
    code === 114 ||
    code === 116
  );
}

const BROKEN_STEP = -1;
const ENDED_STEP = -2;

/** The next number step after `code` (JSON's number grammar), {@link BROKEN_STEP}, or {@link ENDED_STEP} when the number ended before it. */
function readNumberChar(step: number, code: number): number {
  const digit = code >= 48 && code <= 57;
  const exponent = code === 101 || code === 69;
  switch (step) {
    case AFTER_MINUS:
      return code === 48 ? AFTER_ZERO : digit ? INTEGER : BROKEN_STEP;
    case AFTER_ZERO:
      return code === 46 ? AFTER_DOT : exponent ? AFTER_E : ENDED_STEP;
    case INTEGER:
      return digit ? INTEGER : code === 46 ? AFTER_DOT : exponent ? AFTER_E : ENDED_STEP;
    case AFTER_DOT:
      return digit ? FRACTION : BROKEN_STEP;
    case FRACTION:
      return digit ? FRACTION : exponent ? AFTER_E : ENDED_STEP;
    case AFTER_E:
      return code === 43 || code === 45 ? AFTER_E_SIGN : digit ? EXPONENT : BROKEN_STEP;
    case AFTER_E_SIGN:
      return digit ? EXPONENT : BROKEN_STEP;
    default:
      return digit ? EXPONENT : ENDED_STEP;
  }
}
