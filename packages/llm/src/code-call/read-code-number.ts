import { type CodeCursor, isDigit, isIdentifierPart } from './code-cursor.js';

/** @internal A number literal: its value, and its text when that text is not integer text. */
export interface CodeNumber {
  readonly value: number;
  /** Set for literals with a fraction or exponent (`5.0`, `1e3`), which never become integers. */
  readonly floatText?: string;
}

/**
 * @internal Reads a decimal number literal at the cursor: optional `-`/`+`, digits with optional
 * `_` separators, optional fraction (`5.`, `.5`), optional exponent. Returns `undefined` for hex,
 * octal and binary prefixes, suffixes (`5n`, `1j`, `2px`), values that overflow to infinity, and
 * separators not between digits.
 */
export function readCodeNumber(cursor: CodeCursor): CodeNumber | undefined {
  const text = cursor.text;
  const start = cursor.position;
  let index = start;
  if (text[index] === '-' || text[index] === '+') index++;
  const integerEnd = skipDigits(text, index);
  if (integerEnd === undefined) return undefined;
  let digits = integerEnd - index;
  index = integerEnd;
  let isFloat = false;
  if (text[index] === '.') {
    isFloat = true;
    const fractionEnd = skipDigits(text, index + 1);
    if (fractionEnd === undefined) return undefined;
    digits += fractionEnd - index - 1;
    index = fractionEnd;
  }
  if (digits === 0) return undefined;
  if (text[index] === 'e' || text[index] === 'E') {
    isFloat = true;
    index++;
    if (text[index] === '+' || text[index] === '-') index++;
    const exponentEnd = skipDigits(text, index);
    if (exponentEnd === undefined || exponentEnd === index) return undefined;
    index = exponentEnd;
  }
  const next = text[index] ?? '';
  if (isIdentifierPart(next) || next === '.') return undefined;
  const literal = text.slice(start, index).replaceAll('_', '');
  const value = Number(literal);
  if (!Number.isFinite(value)) return undefined;
  cursor.position = index;
  return isFloat ? { value, floatText: literal } : { value };
}

/** Index past digits and single `_` separators between digits; `undefined` for a misplaced `_`. */
function skipDigits(text: string, start: number): number | undefined {
  let index = start;
  while (index < text.length) {
    const character = text[index] ?? '';
    if (isDigit(character)) {
      index++;
    } else if (character === '_' && index > start && isDigit(text[index - 1] ?? '') && isDigit(text[index + 1] ?? '')) {
      index++;
    } else {
      break;
    }
  }
  return text[index] === '_' ? undefined : index;
}
