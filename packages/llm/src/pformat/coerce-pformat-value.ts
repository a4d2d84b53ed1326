import { isRecord } from './json-value.js';
import type { PformatParameterType } from './pformat-parameter-type.js';

/**
 * Converts one P-Format slot text to its declared type. Surrounding whitespace is ignored for
 * every type but `string` and `any`, which keep the text verbatim.
 * - `integer`: only integer text (`5`, `-12`); `5.0` stays the string `"5.0"` for validation to report.
 * - `number`: decimal text with optional fraction and exponent, finite only.
 * - `boolean`: `true`/`yes`/`1` and `false`/`no`/`0`, any case.
 * - `null`: the text `null`.
 * - `array` / `object`: JSON text of that shape.
 * Anything that does not convert is returned unchanged as a string.
 */
export function coercePformatValue(text: string, type: PformatParameterType): unknown {
  if (type === 'string' || type === 'any') return text;
  const trimmed = text.trim();
  switch (type) {
    case 'integer':
      return isIntegerText(trimmed) ? Number(trimmed) : text;
    case 'number':
      return isDecimalText(trimmed) && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
    case 'boolean':
      return booleanOf(trimmed.toLowerCase()) ?? text;
    case 'null':
      return trimmed === 'null' ? null : text;
    case 'array': {
      const decoded = trimmed.startsWith('[') ? decodeJson(trimmed) : undefined;
      return Array.isArray(decoded) ? decoded : text;
    }
    case 'object': {
      const decoded = trimmed.startsWith('{') ? decodeJson(trimmed) : undefined;
      return isRecord(decoded) ? decoded : text;
    }
  }
}

function booleanOf(lower: string): boolean | undefined {
  if (lower === 'true' || lower === 'yes' || lower === '1') return true;
  if (lower === 'false' || lower === 'no' || lower === '0') return false;
  return undefined;
}

function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Index just past a run of ASCII digits starting at `start`. */
function skipDigits(text: string, start: number): number {
  let index = start;
  while (index < text.length && isDigit(text.charCodeAt(index))) index++;
  return index;
}

/** @internal `-?digits`, nothing else. */
export function isIntegerText(text: string): boolean {
  const start = text.startsWith('-') ? 1 : 0;
  const end = skipDigits(text, start);
  return end > start && end === text.length;
}

/** @internal `-?(digits[.digits*] | .digits)([eE][+-]?digits)?`. */
export function isDecimalText(text: string): boolean {
  let index = text.startsWith('-') ? 1 : 0;
  const integerEnd = skipDigits(text, index);
  let digits = integerEnd - index;
  index = integerEnd;
  if (text[index] === '.') {
    const fractionEnd = skipDigits(text, index + 1);
    digits += fractionEnd - index - 1;
    index = fractionEnd;
  }
  if (digits === 0) return false;
  if (text[index] === 'e' || text[index] === 'E') {
    index++;
    if (text[index] === '+' || text[index] === '-') index++;
    const exponentEnd = skipDigits(text, index);
    if (exponentEnd === index) return false;
    index = exponentEnd;
  }
  return index === text.length;
}
