import { templateMarkerLength } from './template-markers.js';

const OBJECT = 0;
const ARRAY = 1;

/** Output pieces joined together at a time. */
const PARTS_PER_CHUNK = 1024;

/** Excess closers beyond this count are not trimmed: that much debris is not a slip of the pen. */
const MAX_TRIMMED_CLOSERS = 50;

const controlCharacter = /[\u0000-\u001f]/g;

// Character classes for the main loop; everything else outside strings is copied as it is.
const PLAIN = 0;
const QUOTE = 1;
const OPEN_OBJECT = 2;
const OPEN_ARRAY = 3;
const CLOSE = 4;
const COMMA = 5;
const ANGLE = 6;
const KIND = new Uint8Array(128);
KIND[34] = QUOTE;
KIND[123] = OPEN_OBJECT;
KIND[91] = OPEN_ARRAY;
KIND[125] = CLOSE;
KIND[93] = CLOSE;
KIND[44] = COMMA;
KIND[60] = ANGLE;

// Helpers stay in this module: the scanner's hot loop calls them for every key and comma.
const CONTROL_ESCAPES: readonly string[] = Array.from({ length: 32 }, (_, code) => {
  if (code === 10) return '\\n';
  if (code === 13) return '\\r';
  if (code === 9) return '\\t';
  return `\\u${code.toString(16).padStart(4, '0')}`;
});

const nonAsciiWord = /[\p{L}\p{N}]/u;

/** JSON whitespace: space, tab, line feed, carriage return. */
function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** Whether the character can start a bare key: a letter or `_`. */
function isKeyStart(text: string, index: number, code: number): boolean {
  if (isAsciiLetter(code) || code === 95) return true;
  return code >= 128 && nonAsciiWord.test(text.charAt(index));
}

/** Whether the character can continue a bare key: a letter, digit, `_`, `-` or `.`. */
function isKeyPart(text: string, index: number, code: number): boolean {
  if (isAsciiLetter(code) || (code >= 48 && code <= 57) || code === 95 || code === 45 || code === 46) return true;
  return code >= 128 && nonAsciiWord.test(text.charAt(index));
}

/**
 * Characters that may not appear inside a quote-repaired key: structure, quotes, escapes, control.
 */
function endsQuotedKey(code: number): boolean {
  return (
    code < 32 ||
    code === 34 ||
    code === 39 ||
    code === 92 ||
    code === 123 ||
    code === 125 ||
    code === 91 ||
    code === 93 ||
    code === 58 ||
    code === 44
  );
}

/**
 * One string-aware pass of the conservative object ladder (rungs R1 to R3 of the relaxed-JSON
 * rules), written into an array of slices of the input:
 * - template markers outside string literals are removed;
 * - raw control characters inside strings are escaped;
 * - commas directly before `}` or `]` are dropped;
 * - in object-key position only: bare keys are quoted, and single-quoted or mismatched-quote keys
 *   (`'city':`, `"city':`) are re-quoted when the closing quote is followed by `:`;
 * - missing closers are appended in order (a dangling comma before them is dropped), or, when
 *   nothing is left open, up to 50 excess trailing closers are trimmed.
 *
 * Values, array elements and string contents are never rewritten. Every change only touches text
 * that strict JSON rejects, so valid JSON passes through unchanged. String bodies are skipped with
 * `indexOf`; the next backslash and control character are looked up once and cached.
 */
class RelaxScanner {
  private readonly text: string;
  private readonly length: number;
  /** Output pieces not yet joined; joined into `chunks` every {@link PARTS_PER_CHUNK} pieces. */
  private readonly parts: string[] = [];
  private readonly chunks: string[] = [];
  private readonly stack: number[] = [];
  private copyFrom = 0;
  private nextBackslash = -1;
  private nextControl = -1;
  /** Set when the text ends inside a string literal. */
  private truncated = false;
  private mismatched = false;

  constructor(text: string) {
    this.text = text;
    this.length = text.length;
  }

  /**
   * Appends a piece to the output. Pieces are joined in groups so that the many small strings die
   * young instead of all staying alive until the end (which made garbage collection dominate).
   */
  private emit(piece: string): void {
    const { parts } = this;
    parts.push(piece);
    if (parts.length >= PARTS_PER_CHUNK) {
      this.chunks.push(parts.join(''));
      parts.length = 0;
    }
  }

  /** Copies the input from the last copy point up to `index` into the output. */
  private flush(index: number): void {
    if (index > this.copyFrom) this.emit(this.text.slice(this.copyFrom, index));
  }

  /** Replaces `text[from, to)` by `replacement` in the output. */
  private replace(from: number, to: number, replacement: string): void {
    this.flush(from);
    if (replacement !== '') this.emit(replacement);
    this.copyFrom = to;
  }

  /** Index of the first character at or after `index` that is neither whitespace nor a template marker. */
  private nextSignificant(index: number): number {
    const { text, length } = this;
    let at = index;
    while (at < length) {
      const code = text.charCodeAt(at);
      if (isWhitespace(code)) {
        at++;
      } else if (code === 60) {
        const markerLength = templateMarkerLength(text, at);
        if (markerLength === 0) return at;
        at += markerLength;
      } else {
        return at;
      }
    }
    return at;
  }

  /** Like {@link nextSignificant}, removing the markers it passes from the output. */
  private skipInsignificant(index: number): number {
    const { text, length } = this;
    let at = index;
    while (at < length) {
      const code = text.charCodeAt(at);
      if (isWhitespace(code)) {
        at++;
        continue;
      }
      const markerLength = code === 60 ? templateMarkerLength(text, at) : 0;
      if (markerLength === 0) return at;
      this.replace(at, at + markerLength, '');
      at += markerLength;
    }
    return at;
  }

  private followedByColon(index: number): boolean {
    const { text, length } = this;
    let at = index;
    while (at < length && isWhitespace(text.charCodeAt(at))) at++;
    return text.charCodeAt(at) === 58;
  }

  /** Escapes raw control characters in `text[from, to)`, which lies inside a string. */
  private escapeControls(from: number, to: number): void {
    while (true) {
      if (this.nextControl < from) {
        controlCharacter.lastIndex = from;
        this.nextControl = controlCharacter.test(this.text) ? controlCharacter.lastIndex - 1 : this.length;
      }
      const at = this.nextControl;
      if (at >= to) return;
      this.replace(at, at + 1, CONTROL_ESCAPES[this.text.charCodeAt(at)] ?? '');
      from = at + 1;
    }
  }

  /**
   * Finds the closing quote of the string opening at `start`, or -1 when the text ends inside it.
   * With `escapeControls`, raw control characters on the way are escaped in the output.
   */
  private scanString(start: number, escapeControls: boolean): number {
    const { text } = this;
    let from = start + 1;
    while (true) {
      const close = text.indexOf('"', from);
      if (close < 0) return -1;
      if (this.nextBackslash < from) {
        const backslash = text.indexOf('\\', from);
        this.nextBackslash = backslash < 0 ? this.length : backslash;
      }
      const backslash = this.nextBackslash;
      if (backslash < close) {
        if (escapeControls) this.escapeControls(from, backslash);
        from = backslash + 2;
        continue;
      }
      if (escapeControls) this.escapeControls(from, close);
      return close;
    }
  }

  /** End quote (`'` or `"`) of a quote-repairable key whose content starts at `from`, or -1. */
  private repairableKeyEnd(from: number, closing: 'single' | 'any'): number {
    const { text, length } = this;
    let index = from;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code === 39 || (code === 34 && closing === 'any')) {
        return this.followedByColon(index + 1) ? index : -1;
      }
      if (endsQuotedKey(code)) return -1;
      index++;
    }
    return -1;
  }

  /**
   * Handles object-key position (after `{` or an object's `,`) from `index`, skipping whitespace
   * and markers first; returns where the main loop continues.
   */
  private key(index: number): number {
    return this.keyAt(this.skipInsignificant(index));
  }

  /** Handles the key expected to start at `start` (a significant character); see {@link key}. */
  private keyAt(start: number): number {
    const { text, length } = this;
    const code = text.charCodeAt(start);
    if (code === 34) {
      const close = this.scanString(start, false);
      if (close < 0) {
        this.truncated = true;
        return length;
      }
      if (!this.followedByColon(close + 1)) {
        const keyEnd = this.repairableKeyEnd(start + 1, 'single');
        if (keyEnd >= 0) {
          this.replace(start, keyEnd + 1, `"${text.slice(start + 1, keyEnd)}"`);
          // The scan resumes before positions the cached look-ups may have moved past.
          this.nextBackslash = -1;
          this.nextControl = -1;
          return keyEnd + 1;
        }
      }
      this.scanString(start, true);
      return close + 1;
    }
    if (code === 39) {
      const keyEnd = this.repairableKeyEnd(start + 1, 'any');
      if (keyEnd < 0) return start + 1;
      this.replace(start, keyEnd + 1, `"${text.slice(start + 1, keyEnd)}"`);
      return keyEnd + 1;
    }
    if (start < length && isKeyStart(text, start, code)) {
      let end = start + 1;
      while (end < length && isKeyPart(text, end, text.charCodeAt(end))) end++;
      if (text.charCodeAt(end) === 58 || this.followedByColon(end)) {
        this.replace(start, end, `"${text.slice(start, end)}"`);
      }
      return end;
    }
    return start;
  }

  /** Handles the comma at `index`; returns where the main loop continues. */
  private comma(index: number): number {
    const { text, length, stack } = this;
    let next = index + 1;
    let code = text.charCodeAt(next);
    while (isWhitespace(code)) code = text.charCodeAt(++next);
    if (code === 60) {
      next = this.nextSignificant(next);
      code = text.charCodeAt(next);
    }
    if (code === 125 || code === 93 || (next >= length && stack.length > 0)) {
      this.replace(index, index + 1, '');
      return index + 1;
    }
    if (stack[stack.length - 1] !== OBJECT) return next;
    // Markers between the comma and the key are removed by `key`.
    return code === 60 || next >= length ? this.key(index + 1) : this.keyAt(next);
  }

  /**
   * Handles a closer at `index` with nothing open: trims it and what follows when that is at most
   * 50 closers (with whitespace and markers); otherwise leaves the text to fail strict parsing.
   */
  private excess(index: number): void {
    const { text, length } = this;
    let count = 0;
    let at = index;
    while (at < length) {
      at = this.nextSignificant(at);
      if (at >= length) break;
      const code = text.charCodeAt(at);
      if ((code !== 125 && code !== 93) || ++count > MAX_TRIMMED_CLOSERS) return;
      at++;
    }
    if (this.mismatched) return;
    this.flush(index);
    this.copyFrom = length;
  }

  /** Runs the pass; `undefined` when the text ends inside a string (a truncated value is never completed). */
  run(): string | undefined {
    const { text, length, stack } = this;
    let index = 0;
    while (index < length) {
      const code = text.charCodeAt(index);
      const kind = code < 128 ? KIND[code] : PLAIN;
      if (kind === PLAIN) {
        index++;
        continue;
      }
      switch (kind) {
        case QUOTE: {
          const close = this.scanString(index, true);
          if (close < 0) return undefined;
          index = close + 1;
          break;
        }
        case OPEN_OBJECT:
          stack.push(OBJECT);
          index = this.key(index + 1);
          break;
        case OPEN_ARRAY:
          stack.push(ARRAY);
          index++;
          break;
        case CLOSE:
          if (stack.length === 0) {
            this.excess(index);
            index = length;
            break;
          }
          if (stack[stack.length - 1] === (code === 125 ? OBJECT : ARRAY)) stack.pop();
          else this.mismatched = true;
          index++;
          break;
        case COMMA:
          index = this.comma(index);
          break;
        default: {
          const markerLength = templateMarkerLength(text, index);
          if (markerLength > 0) this.replace(index, index + markerLength, '');
          index += markerLength > 0 ? markerLength : 1;
        }
      }
      if (this.truncated) return undefined;
    }

    if (!this.mismatched && stack.length > 0) {
      const closers: string[] = [];
      for (let depth = stack.length - 1; depth >= 0; depth--) closers.push(stack[depth] === OBJECT ? '}' : ']');
      this.flush(length);
      this.copyFrom = length;
      this.emit(closers.join(''));
    }
    if (this.copyFrom === 0) return text;
    this.flush(length);
    this.chunks.push(this.parts.join(''));
    return this.chunks.join('');
  }
}

/**
 * Applies the string-aware repairs of relaxed-JSON rungs R1 (markers), R2 (control characters,
 * trailing commas, balancing) and R3 (key quoting) in one linear pass.
 * Returns `undefined` when the text ends inside a string literal.
 * @internal
 */
export function relaxObjectText(text: string): string | undefined {
  return new RelaxScanner(text).run();
}
