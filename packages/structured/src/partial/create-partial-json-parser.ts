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

/** A key list entry for a key that had an escape: its text differs from what the input writes. */
type KeyList = (string | null)[];

/** One open container. Frames are kept per depth and reused, so opening a container allocates none. */
class Frame {
  container: Record<string, unknown> | unknown[] = [];
  isArray = false;
  /** Objects: the key whose value comes next. */
  key = '';
  /**
   * Objects: the keys read so far. While they are those of the last object closed at this depth
   * (objects in a list mostly repeat their keys), this is that object's list, shared.
   */
  keys: KeyList | undefined = undefined;
  /** Objects: how many keys have been read. */
  keyCount = 0;
}

const powersOfTen = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const numberPattern = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const literals: Record<string, unknown> = { true: true, false: false, null: null };

function isNumberChar(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 101 || code === 69;
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
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

/** Stores a value under the frame's pending key, or appends it to the frame's array. */
function insert(frame: Frame, value: unknown): void {
  if (frame.isArray) (frame.container as unknown[]).push(value);
  else if (frame.key === '__proto__') {
    Object.defineProperty(frame.container, '__proto__', {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else (frame.container as Record<string, unknown>)[frame.key] = value;
}

/** Replaces the value last inserted into the frame (an unfinished string that grew). */
function replaceLast(frame: Frame, value: unknown): void {
  if (frame.isArray) {
    const array = frame.container as unknown[];
    array[array.length - 1] = value;
  } else insert(frame, value);
}

/** Whether `delta` writes the key `key` and its closing quote at `start` (short keys: a loop beats `startsWith`). */
function writesKey(delta: string, start: number, key: string): boolean {
  const length = key.length;
  if (start + length >= delta.length || delta.charCodeAt(start + length) !== 34) return false;
  for (let k = 0; k < length; k += 1) if (delta.charCodeAt(start + k) !== key.charCodeAt(k)) return false;
  return true;
}

/** Notes the key just read, keeping the shared key list while it matches. */
function recordKey(frame: Frame, key: string | null): void {
  let keys = frame.keys;
  const count = frame.keyCount;
  if (keys === undefined) {
    keys = [];
    frame.keys = keys;
  } else if (count < keys.length) {
    if (keys[count] === key) {
      frame.keyCount = count + 1;
      return;
    }
    keys = keys.slice(0, count);
    frame.keys = keys;
  }
  keys.push(key);
  frame.keyCount = count + 1;
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
  return new IncrementalJsonParser();
}

class IncrementalJsonParser implements PartialJsonParser {
  private mode: Mode = Mode.Value;
  private root: unknown = undefined;
  private failure: string | undefined = undefined;
  /** Open containers: `frames[0]` is the root's, `frames[depth - 1]` the innermost. */
  private readonly frames: Frame[] = [];
  private depth = 0;
  /** Per depth, the keys of the last object closed there. */
  private readonly shapes: (KeyList | undefined)[] = [];
  /** The token in progress: an unfinished string, number or literal. */
  private text = '';
  private stringIsKey = false;
  /** Whether the key in progress had an escape. */
  private keyEscaped = false;
  /** Whether the unfinished string value is already in its slot (it is put there at the end of a push). */
  private stringAttached = false;
  /** 0: none; 1: after `\`; 2..5: collecting \u hex digits. */
  private escapeState = 0;
  private unicode = 0;

  get value(): unknown {
    return this.root;
  }

  get done(): boolean {
    return this.mode === Mode.Done;
  }

  get error(): string | undefined {
    return this.failure;
  }

  end(): unknown {
    if (this.depth === 0 && (this.mode === Mode.Number || this.mode === Mode.Literal)) this.push(' ');
    if (this.mode !== Mode.Done) throw new SyntaxError(this.failure ?? 'unexpected end of JSON input');
    return this.root;
  }

  private fail(message: string): Mode {
    this.failure ??= message;
    return Mode.Failed;
  }

  /** Puts a complete or starting value into the innermost container (or makes it the root); returns the next mode. */
  private attach(value: unknown): Mode {
    const depth = this.depth;
    if (depth === 0) {
      this.root = value;
      return Mode.Done;
    }
    insert(this.frames[depth - 1] as Frame, value);
    return Mode.AfterValue;
  }

  /** Opens a container inside the innermost one; returns the next mode. */
  private open(isArray: boolean): Mode {
    const container = isArray ? [] : {};
    const depth = this.depth;
    if (depth === 0) this.root = container;
    else insert(this.frames[depth - 1] as Frame, container);
    let frame = this.frames[depth];
    if (frame === undefined) {
      frame = new Frame();
      this.frames.push(frame);
    }
    frame.container = container;
    frame.isArray = isArray;
    if (!isArray) {
      frame.keys = this.shapes[depth];
      frame.keyCount = 0;
    }
    this.depth = depth + 1;
    return isArray ? Mode.ValueOrClose : Mode.KeyOrClose;
  }

  /** Closes the innermost container with `]` or `}`; returns the next mode. */
  private close(code: number): Mode {
    const depth = this.depth;
    const frame = this.frames[depth - 1];
    if (frame === undefined || (code === 93) !== frame.isArray)
      return this.fail(`unexpected ${String.fromCharCode(code)}`);
    this.depth = depth - 1;
    if (!frame.isArray) this.shapes[depth - 1] = frame.keys;
    else if ((frame.container as unknown[]).length < 16) {
      // An array grown by `push` keeps spare capacity (17 slots for 3 elements, about twice the memory
      // of an exact one); a closed small array is swapped for an exact-size copy. Documents are kept,
      // so their size is what the garbage collector pays for on every collection while they live.
      const copy = (frame.container as unknown[]).slice();
      if (depth === 1) this.root = copy;
      else replaceLast(this.frames[depth - 2] as Frame, copy);
    }
    return depth === 1 ? Mode.Done : Mode.AfterValue;
  }

  private finishNumber(): Mode {
    const text = this.text;
    this.text = '';
    if (!isPlainInteger(text) && !numberPattern.test(text)) return this.fail(`invalid number ${JSON.stringify(text)}`);
    return this.attach(Number(text));
  }

  /**
   * Reads a number or literal starting at `start` when its end is inside `delta` (the common case),
   * without buffering it; returns the index after it, or -1 to leave it to the character path.
   */
  private scalarInPiece(delta: string, start: number, code: number): number {
    const length = delta.length;
    if (code === 116 || code === 102 || code === 110) {
      const word = code === 116 ? 'true' : code === 102 ? 'false' : 'null';
      const end = start + word.length;
      if (end >= length || !delta.startsWith(word, start)) return -1;
      const next = delta.charCodeAt(end);
      if (next >= 97 && next <= 122) return -1;
      this.mode = this.attach(code === 116 ? true : code === 102 ? false : null);
      return end;
    }
    let end = start;
    if (code === 45) end += 1;
    // The digits are summed as they are read: `-?digits(.digits)?` with at most 15 of them (no
    // leading zero) is then exactly `significand / 10^fraction`, since both are exact doubles and
    // one division rounds correctly. Anything else goes to `Number`.
    let significand = 0;
    const digitsStart = end;
    let point = -1;
    for (; end < length; end += 1) {
      const unit = delta.charCodeAt(end);
      if (unit === 46 && point < 0) point = end;
      else if (unit >= 48 && unit <= 57) significand = significand * 10 + (unit - 48);
      else break;
    }
    const integerDigits = (point < 0 ? end : point) - digitsStart;
    // -1: a point with no digit after it (not a number).
    const fractionDigits = point < 0 ? 0 : end - point - 1 || -1;
    if (end >= length) return -1;
    if (!isNumberChar(delta.charCodeAt(end))) {
      if (
        integerDigits > 0 &&
        fractionDigits >= 0 &&
        integerDigits + fractionDigits <= 15 &&
        (integerDigits === 1 || delta.charCodeAt(digitsStart) !== 48)
      ) {
        let value: number;
        if (fractionDigits > 0) value = significand / (powersOfTen[fractionDigits] as number);
        // `| 0` keeps small integers small integers (V8 would box the sum as a double).
        else value = integerDigits <= 9 ? significand | 0 : significand;
        this.mode = this.attach(code === 45 ? -value : value);
        return end;
      }
    } else {
      while (end < length && isNumberChar(delta.charCodeAt(end))) end += 1;
      if (end >= length) return -1;
    }
    this.text = delta.slice(start, end);
    this.mode = this.finishNumber();
    return end;
  }

  push(delta: string): void {
    const length = delta.length;
    let mode = this.mode;
    let i = 0;
    let nextQuote = -1;
    let nextBackslash = -1;
    while (i < length && mode !== Mode.Failed) {
      if (mode === Mode.String) {
        if (this.escapeState !== 0) {
          i = this.escape(delta, i);
          if (this.failure !== undefined) mode = Mode.Failed;
          continue;
        }
        // Jump to the next quote or backslash; the positions are cached per piece, so every
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
        if (stop > i) this.text += delta.slice(i, stop);
        if (stop >= length) break;
        i = stop + 1;
        if (stop === nextBackslash) {
          this.escapeState = 1;
          if (this.stringIsKey) this.keyEscaped = true;
          continue;
        }
        const text = this.text;
        this.text = '';
        if (this.stringIsKey) {
          const frame = this.frames[this.depth - 1] as Frame;
          frame.key = text;
          recordKey(frame, this.keyEscaped ? null : text);
          mode = Mode.Colon;
        } else if (this.stringAttached) {
          if (this.depth === 0) this.root = text;
          else replaceLast(this.frames[this.depth - 1] as Frame, text);
          mode = this.depth === 0 ? Mode.Done : Mode.AfterValue;
        } else mode = this.attach(text);
        continue;
      }
      const code = delta.charCodeAt(i);
      if (mode === Mode.Number) {
        if (isNumberChar(code)) {
          const start = i;
          i += 1;
          while (i < length && isNumberChar(delta.charCodeAt(i))) i += 1;
          this.text += delta.slice(start, i);
        } else mode = this.finishNumber();
        continue;
      }
      if (mode === Mode.Literal) {
        if (code < 97 || code > 122) {
          const text = this.text;
          this.text = '';
          mode = Object.hasOwn(literals, text)
            ? this.attach(literals[text])
            : this.fail(`invalid literal ${JSON.stringify(text)}`);
        } else {
          this.text += delta[i];
          i += 1;
          if (this.text.length > 5) mode = this.fail(`invalid literal ${JSON.stringify(this.text)}`);
        }
        continue;
      }
      i += 1;
      if (code <= 32 && isWhitespace(code)) {
        while (i < length && isWhitespace(delta.charCodeAt(i))) i += 1;
        continue;
      }
      switch (mode) {
        case Mode.Value:
        case Mode.ValueOrClose:
          if (code === 34) {
            this.stringIsKey = false;
            this.stringAttached = false;
            mode = Mode.String;
          } else if (code === 123) mode = this.open(false);
          else if (code === 91) mode = this.open(true);
          else if (code === 93 && mode === Mode.ValueOrClose) mode = this.close(code);
          else {
            // A number or literal that ends inside this piece is read in one go.
            this.mode = mode;
            const end = this.scalarInPiece(delta, i - 1, code);
            if (end >= 0) {
              i = end;
              mode = this.mode;
            } else if (code === 45 || (code >= 48 && code <= 57)) {
              this.text = delta.slice(i - 1, i);
              mode = Mode.Number;
            } else if (code === 116 || code === 102 || code === 110) {
              this.text = delta.slice(i - 1, i);
              mode = Mode.Literal;
            } else mode = this.fail(`unexpected ${JSON.stringify(delta[i - 1])} where a value was expected`);
          }
          break;
        case Mode.KeyOrClose:
        case Mode.Key:
          if (code === 34) {
            const frame = this.frames[this.depth - 1] as Frame;
            const expected = frame.keys?.[frame.keyCount];
            if (expected != null && writesKey(delta, i, expected)) {
              // The key the last object at this depth had here: reuse its string.
              frame.key = expected;
              frame.keyCount += 1;
              i += expected.length + 1;
              mode = Mode.Colon;
            } else {
              this.stringIsKey = true;
              this.keyEscaped = false;
              mode = Mode.String;
            }
          } else if (code === 125 && mode === Mode.KeyOrClose) mode = this.close(code);
          else mode = this.fail(`unexpected ${JSON.stringify(delta[i - 1])} where a key was expected`);
          break;
        case Mode.Colon:
          mode = code === 58 ? Mode.Value : this.fail('expected ":" after a key');
          break;
        case Mode.AfterValue:
          if (code === 44) mode = (this.frames[this.depth - 1] as Frame).isArray ? Mode.Value : Mode.Key;
          else if (code === 93 || code === 125) mode = this.close(code);
          else mode = this.fail(`unexpected ${JSON.stringify(delta[i - 1])} after a value`);
          break;
        default:
          mode = this.fail('unexpected text after the JSON value');
      }
    }
    if (mode === Mode.String && !this.stringIsKey) {
      const text = this.text;
      if (this.stringAttached) {
        if (this.depth === 0) this.root = text;
        else replaceLast(this.frames[this.depth - 1] as Frame, text);
      } else {
        this.attach(text);
        this.stringAttached = true;
      }
    }
    this.mode = mode;
  }

  /** Reads one character of an escape in a string; returns the index after it. */
  private escape(delta: string, i: number): number {
    const code = delta.charCodeAt(i);
    if (this.escapeState === 1) {
      if (code === 117) {
        this.escapeState = 2;
        this.unicode = 0;
      } else {
        const decoded = escapes[code];
        if (decoded === undefined) this.fail(`invalid escape \\${String.fromCharCode(code)}`);
        else {
          this.text += decoded;
          this.escapeState = 0;
        }
      }
      return i + 1;
    }
    const digit =
      code >= 48 && code <= 57
        ? code - 48
        : code >= 97 && code <= 102
          ? code - 87
          : code >= 65 && code <= 70
            ? code - 55
            : -1;
    if (digit < 0) this.fail('invalid \\u escape');
    else {
      this.unicode = this.unicode * 16 + digit;
      this.escapeState += 1;
      if (this.escapeState === 6) {
        this.text += String.fromCharCode(this.unicode);
        this.escapeState = 0;
      }
    }
    return i + 1;
  }
}
