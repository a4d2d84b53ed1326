/**
 * An incremental JSON parser: feed it the text in pieces and read the value built so far at any
 * time. Each `push` costs time proportional to the piece, never to what was received before.
 */
export interface PartialJsonParser {
  /** Feeds the next piece of text. After a syntax error further input is ignored (see `error`). */
  push(delta: string): void;
  /**
   * The value built so far, or `undefined` before the root value starts. It is a live view that
   * later pushes keep changing in place (a small array, once closed, is swapped in its parent for
   * an equal exact-size copy, so hold on to the root rather than to nested containers): read it,
   * do not mutate it, and copy it (`structuredClone`) to keep a snapshot. It is prefix-consistent with the final value: objects
   * hold a subset of the final keys, arrays a prefix of the final elements, an unfinished string a
   * prefix of the final string; numbers, `true`, `false` and `null` appear only once complete.
   */
  readonly value: unknown;
  /** True once the root value is complete. */
  readonly done: boolean;
  /** The first syntax error, if any. */
  readonly error: string | undefined;
  /**
   * Ends the input and returns the complete value (equal to `JSON.parse` of everything pushed).
   * @throws {SyntaxError} when the text is not one complete JSON value.
   */
  end(): unknown;
}

type Container = Record<string, unknown> | unknown[];

interface Frame {
  readonly container: Container;
  readonly isArray: boolean;
  /** The key whose value comes next (objects). */
  key: string;
}

enum Mode {
  Value,
  ValueOrClose,
  Key,
  KeyOrClose,
  Colon,
  AfterValue,
  String,
  Number,
  Literal,
  Done,
  Failed,
}

const numberPattern = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const literals: Record<string, unknown> = { true: true, false: false, null: null };

function isNumberChar(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 101 || code === 69;
}

/** Digits only, without a leading zero (or a single `0`): the common case, checked without a regex. */
function isPlainInteger(text: string): boolean {
  const length = text.length;
  if (length === 0 || length > 15) return false;
  const first = text.charCodeAt(0);
  if (first === 48) return length === 1;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

const escapes: Record<number, string> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
};

/**
 * Creates a {@link PartialJsonParser}. The parser is a state machine over the characters: only
 * the token in progress is buffered (an unfinished string, number or literal), and containers are
 * built in place, so the total cost of any split of a text is linear in its length. It follows
 * `JSON.parse` except that raw control characters inside strings are accepted (models write raw
 * newlines and tabs in long strings).
 */
export function createPartialJsonParser(): PartialJsonParser {
  /** The innermost open container, and the ones around it. */
  let top: Frame | undefined;
  const parents: Frame[] = [];
  let root: unknown;
  let mode: Mode = Mode.Value;
  let error: string | undefined;
  // The token in progress.
  let text = '';
  let stringIsKey = false;
  /** Whether the unfinished string value is already in its slot (it is put there at the end of a push). */
  let stringAttached = false;
  let escapeState = 0; // 0: none; 1: after `\`; 2..5: collecting \u hex digits
  let unicode = 0;

  const fail = (message: string): void => {
    error ??= message;
    mode = Mode.Failed;
  };

  /** Puts a value into the current slot (a new array element, the pending key, or the root). */
  const attach = (value: unknown): void => {
    const frame = top;
    if (frame === undefined) root = value;
    else if (frame.isArray) (frame.container as unknown[]).push(value);
    else setOwn(frame.container as Record<string, unknown>, frame.key, value);
  };

  /** Replaces the value in the current slot (an unfinished string that grew). */
  const update = (value: unknown): void => {
    const frame = top;
    if (frame === undefined) root = value;
    else if (frame.isArray) {
      const array = frame.container as unknown[];
      array[array.length - 1] = value;
    } else setOwn(frame.container as Record<string, unknown>, frame.key, value);
  };

  const afterValue = (): void => {
    mode = top === undefined ? Mode.Done : Mode.AfterValue;
  };

  const finishNumber = (): boolean => {
    if (!isPlainInteger(text) && !numberPattern.test(text)) {
      fail(`invalid number ${JSON.stringify(text)}`);
      return false;
    }
    attach(Number(text));
    text = '';
    afterValue();
    return true;
  };

  const startValue = (code: number, char: string): void => {
    if (code === 34) {
      mode = Mode.String;
      stringIsKey = false;
      stringAttached = false;
      text = '';
    } else if (code === 123) {
      const container: Record<string, unknown> = {};
      attach(container);
      if (top !== undefined) parents.push(top);
      top = { container, isArray: false, key: '' };
      mode = Mode.KeyOrClose;
    } else if (code === 91) {
      const container: unknown[] = [];
      attach(container);
      if (top !== undefined) parents.push(top);
      top = { container, isArray: true, key: '' };
      mode = Mode.ValueOrClose;
    } else if (code === 45 || (code >= 48 && code <= 57)) {
      mode = Mode.Number;
      text = char;
    } else if (code === 116 || code === 102 || code === 110) {
      mode = Mode.Literal;
      text = char;
    } else {
      fail(`unexpected ${JSON.stringify(char)} where a value was expected`);
    }
  };

  /**
   * Reads a number or literal starting at `start` when its end is inside `delta` (the common case),
   * without buffering it; returns the index after it, or -1 to leave it to the character path.
   */
  const scalarInPiece = (delta: string, start: number, code: number): number => {
    const length = delta.length;
    if (code === 116 || code === 102 || code === 110) {
      const word = code === 116 ? 'true' : code === 102 ? 'false' : 'null';
      const end = start + word.length;
      if (end >= length || !delta.startsWith(word, start)) return -1;
      const next = delta.charCodeAt(end);
      if (next >= 97 && next <= 122) return -1;
      attach(code === 116 ? true : code === 102 ? false : null);
      afterValue();
      return end;
    }
    let end = start;
    if (code === 45) end += 1;
    // Plain integers (no leading zero, at most 9 digits) are summed as they are read.
    let integer = 0;
    const digitsStart = end;
    while (end < length) {
      const digit = delta.charCodeAt(end) - 48;
      if (digit < 0 || digit > 9) break;
      integer = integer * 10 + digit;
      end += 1;
    }
    if (end >= length) return -1;
    const digits = end - digitsStart;
    if (!isNumberChar(delta.charCodeAt(end))) {
      if (digits > 0 && digits <= 9 && (digits === 1 || delta.charCodeAt(digitsStart) !== 48)) {
        // `| 0` keeps small integers small integers (V8 would box the sum as a double).
        attach(code === 45 ? (integer === 0 ? -0 : -integer | 0) : integer | 0);
        afterValue();
        return end;
      }
    } else {
      while (end < length && isNumberChar(delta.charCodeAt(end))) end += 1;
      if (end >= length) return -1;
    }
    text = delta.slice(start, end);
    return finishNumber() ? end : length;
  };

  const close = (code: number): void => {
    const frame = top;
    if (frame === undefined || (code === 93) !== frame.isArray) {
      fail(`unexpected ${String.fromCharCode(code)}`);
      return;
    }
    top = parents.pop();
    // An array grown by `push` keeps spare capacity (17 slots for 3 elements, about twice the memory
    // of an exact one); a closed small array is swapped for an exact-size copy. Documents are kept,
    // so their size is what the garbage collector pays for on every collection while they live.
    if (frame.isArray && (frame.container as unknown[]).length < 16) update((frame.container as unknown[]).slice());
    afterValue();
  };

  const push = (delta: string): void => {
    const length = delta.length;
    let i = 0;
    let nextQuote = -1;
    let nextBackslash = -1;
    while (i < length) {
      switch (mode) {
        case Mode.String: {
          if (escapeState === 0) {
            // Jump to the next quote or backslash; the positions are cached per delta, so every
            // character is looked at at most once for each of the two.
            if (nextQuote < i) {
              nextQuote = delta.indexOf('"', i);
              if (nextQuote < 0) nextQuote = length;
            }
            if (nextBackslash < i) {
              nextBackslash = delta.indexOf('\\', i);
              if (nextBackslash < 0) nextBackslash = length;
            }
            const stop = Math.min(nextQuote, nextBackslash);
            if (stop > i) text += delta.slice(i, stop);
            i = stop;
            if (i >= length) break;
            i += 1;
            if (stop === nextQuote) {
              if (stringIsKey) {
                const frame = top as Frame;
                frame.key = text;
                mode = Mode.Colon;
              } else {
                if (stringAttached) update(text);
                else attach(text);
                afterValue();
              }
              text = '';
            } else {
              escapeState = 1;
            }
          } else if (escapeState === 1) {
            const code = delta.charCodeAt(i);
            i += 1;
            if (code === 117) {
              escapeState = 2;
              unicode = 0;
            } else {
              const decoded = escapes[code];
              if (decoded === undefined) fail(`invalid escapeState \\${String.fromCharCode(code)}`);
              else {
                text += decoded;
                escapeState = 0;
              }
            }
          } else {
            const code = delta.charCodeAt(i);
            i += 1;
            const digit =
              code >= 48 && code <= 57
                ? code - 48
                : code >= 97 && code <= 102
                  ? code - 87
                  : code >= 65 && code <= 70
                    ? code - 55
                    : -1;
            if (digit < 0) fail('invalid \\u escapeState');
            else {
              unicode = unicode * 16 + digit;
              escapeState += 1;
              if (escapeState === 6) {
                text += String.fromCharCode(unicode);
                escapeState = 0;
              }
            }
          }
          break;
        }
        case Mode.Number: {
          const start = i;
          while (i < length && isNumberChar(delta.charCodeAt(i))) i += 1;
          if (i > start) text += delta.slice(start, i);
          if (i < length) finishNumber();
          break;
        }
        case Mode.Literal: {
          const code = delta.charCodeAt(i);
          if (code < 97 || code > 122) {
            if (!Object.hasOwn(literals, text)) fail(`invalid literal ${JSON.stringify(text)}`);
            else {
              attach(literals[text]);
              text = '';
              afterValue();
            }
          } else {
            text += delta[i];
            i += 1;
            if (text.length > 5) fail(`invalid literal ${JSON.stringify(text)}`);
          }
          break;
        }
        default: {
          const code = delta.charCodeAt(i);
          if (isWhitespace(code)) {
            i += 1;
            while (i < length && isWhitespace(delta.charCodeAt(i))) i += 1;
            break;
          }
          i += 1;
          switch (mode) {
            case Mode.Value:
            case Mode.ValueOrClose: {
              if (code === 93 && mode === Mode.ValueOrClose) close(code);
              else if (code === 34 || code === 123 || code === 91) startValue(code, delta[i - 1] as string);
              else {
                // A number or literal that ends inside this piece is read in one go.
                const end = scalarInPiece(delta, i - 1, code);
                if (end < 0) startValue(code, delta[i - 1] as string);
                else i = end;
              }
              break;
            }
            case Mode.KeyOrClose:
            case Mode.Key:
              if (code === 34) {
                mode = Mode.String;
                stringIsKey = true;
                text = '';
              } else if (code === 125 && mode === Mode.KeyOrClose) close(code);
              else fail(`unexpected ${JSON.stringify(delta[i - 1])} where a key was expected`);
              break;
            case Mode.Colon:
              if (code === 58) mode = Mode.Value;
              else fail(`expected ":" after a key`);
              break;
            case Mode.AfterValue: {
              const frame = top as Frame;
              if (code === 44) mode = frame.isArray ? Mode.Value : Mode.Key;
              else if (code === 93 || code === 125) close(code);
              else fail(`unexpected ${JSON.stringify(delta[i - 1])} after a value`);
              break;
            }
            case Mode.Done:
              fail('unexpected text after the JSON value');
              break;
            default:
              // Failed: ignore the rest.
              return;
          }
        }
      }
      if (mode === Mode.Failed) return;
    }
    if (mode === Mode.String && !stringIsKey) {
      if (stringAttached) update(text);
      else attach(text);
      stringAttached = true;
    }
  };

  return {
    push,
    get value() {
      return root;
    },
    get done() {
      return mode === Mode.Done;
    },
    get error() {
      return error;
    },
    end() {
      if (mode === Mode.Number && top === undefined) finishNumber();
      else if (mode === Mode.Literal && top === undefined) push(' ');
      if (mode !== Mode.Done) throw new SyntaxError(error ?? 'unexpected end of JSON input');
      return root;
    },
  };
}
