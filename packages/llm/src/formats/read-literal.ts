import { FormatParseError, type FormatParseErrorKind } from '../errors/format-parse-error.js';
import { setOwn } from '../schema/map-subschemas.js';
import type { ToolFormat } from '../spec/tool-format.js';

/** Deepest array/object nesting a literal may have. @internal */
export const maxLiteralDepth = 128;

const escapes: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Reads one JSON literal starting at `start` (after any whitespace) and returns it with the index
 * just past it. Strings may use double or single quotes and the JSON escapes (plus `\'`);
 * everything else is strict JSON: numbers by the JSON grammar, `true`, `false`, `null`, arrays
 * and objects with string keys and no trailing commas. Runs in linear time; the depth of nesting
 * is bounded by {@link maxLiteralDepth}.
 *
 * @throws {FormatParseError} for an unterminated string, array or object, a bad escape, an
 *   unexpected character or nesting that is too deep.
 * @internal
 */
export function readLiteral(
  text: string,
  start: number,
  format: ToolFormat['type'],
): { readonly value: unknown; readonly end: number } {
  const fail = (kind: FormatParseErrorKind, reason: string, offset: number): never => {
    throw new FormatParseError({ format, kind, reason, offset });
  };
  const skip = (index: number): number => {
    let at = index;
    while (at < text.length && (text[at] === ' ' || text[at] === '\t' || text[at] === '\n' || text[at] === '\r')) at++;
    return at;
  };

  const readString = (open: number): { value: string; end: number } => {
    const quote = text[open];
    let out = '';
    let chunk = open + 1;
    let index = open + 1;
    while (index < text.length) {
      const char = text[index];
      if (char === quote) return { value: out + text.slice(chunk, index), end: index + 1 };
      if (char !== '\\') {
        index++;
        continue;
      }
      out += text.slice(chunk, index);
      const next = text[index + 1];
      if (next === undefined) break;
      if (next === 'u') {
        const hex = text.slice(index + 2, index + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('syntax', 'a \\u escape needs four hex digits', index);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        index += 6;
      } else {
        const decoded = escapes[next];
        if (decoded === undefined) fail('syntax', `unknown escape \\${next} in a string`, index);
        out += decoded;
        index += 2;
      }
      chunk = index;
    }
    return fail('unterminated', 'a string is never closed', open);
  };

  const read = (index: number, depth: number): { value: unknown; end: number } => {
    const at = skip(index);
    const char = text[at];
    if (char === undefined) return fail('unterminated', 'a value is missing at the end of the text', at);
    if (char === '"' || char === "'") return readString(at);
    if (char === '-' || (char >= '0' && char <= '9')) {
      const match = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
      match.lastIndex = at;
      const found = match.exec(text);
      if (!found || found[0] === '-') return fail('syntax', 'a malformed number', at);
      const value = Number(found[0]);
      if (!Number.isFinite(value)) return fail('syntax', 'a number out of range', at);
      return { value, end: at + found[0].length };
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at) && !/[A-Za-z0-9_$]/.test(text[at + word.length] ?? '')) {
        return { value, end: at + word.length };
      }
    }
    if (char === '[' || char === '{') {
      if (depth >= maxLiteralDepth) return fail('too_deep', `values nest deeper than ${maxLiteralDepth}`, at);
      return char === '[' ? readArray(at, depth + 1) : readObject(at, depth + 1);
    }
    return fail('syntax', 'unexpected character where a value should start', at);
  };

  const readArray = (open: number, depth: number): { value: unknown[]; end: number } => {
    const values: unknown[] = [];
    let index = skip(open + 1);
    if (text[index] === ']') return { value: values, end: index + 1 };
    for (;;) {
      const entry = read(index, depth);
      values.push(entry.value);
      index = skip(entry.end);
      if (text[index] === ',') index++;
      else if (text[index] === ']') return { value: values, end: index + 1 };
      else if (index >= text.length) return fail('unterminated', 'an array is never closed', open);
      else return fail('syntax', 'expected , or ] in an array', index);
    }
  };

  const readObject = (open: number, depth: number): { value: Record<string, unknown>; end: number } => {
    const value: Record<string, unknown> = {};
    let index = skip(open + 1);
    if (text[index] === '}') return { value, end: index + 1 };
    for (;;) {
      index = skip(index);
      if (index >= text.length) return fail('unterminated', 'an object is never closed', open);
      if (text[index] !== '"' && text[index] !== "'") return fail('syntax', 'an object key must be a string', index);
      const key = readString(index);
      index = skip(key.end);
      if (text[index] !== ':') {
        return index >= text.length
          ? fail('unterminated', 'an object is never closed', open)
          : fail('syntax', 'expected : after an object key', index);
      }
      const entry = read(index + 1, depth);
      setOwn(value, key.value, entry.value);
      index = skip(entry.end);
      if (text[index] === ',') index++;
      else if (text[index] === '}') return { value, end: index + 1 };
      else if (index >= text.length) return fail('unterminated', 'an object is never closed', open);
      else return fail('syntax', 'expected , or } in an object', index);
    }
  };

  return read(start, 0);
}
