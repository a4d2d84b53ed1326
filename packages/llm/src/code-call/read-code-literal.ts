import { setOwn } from '../pformat/json-value.js';
import { type CodeCursor, isDigit } from './code-cursor.js';
import { readCodeNumber } from './read-code-number.js';
import { type CodeLanguage, readCodeString } from './read-code-string.js';

/** @internal A literal read from code: its JSON value plus what binding needs to know about it. */
export interface CodeLiteral {
  readonly value: unknown;
  /** The source text of a number with a fraction or exponent; such a number never becomes an integer. */
  readonly floatText?: string;
  /** For an object literal, its members by key (last duplicate wins). */
  readonly members?: ReadonlyMap<string, CodeLiteral>;
}

/** @internal How strict literal reading is. */
export interface CodeLiteralOptions {
  /** Whether object keys may be bare identifiers (TypeScript); Python keys must be string literals. */
  readonly bareKeys: boolean;
  /** Whose string escapes apply (see `readCodeString`); absent when the dialect is not known. */
  readonly language?: CodeLanguage;
}

/** Deeper lists and objects are refused rather than risking the stack. */
export const CODE_NESTING_LIMIT = 128;
const maximumDepth = CODE_NESTING_LIMIT;

const keywords: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['True', true],
  ['true', true],
  ['False', false],
  ['false', false],
  ['None', null],
  ['null', null],
  ['undefined', null],
]);

/**
 * @internal Reads one literal at the cursor (after whitespace): a string (quotes, triple quotes,
 * backticks, `r`/`u` prefixes), a number, `True`/`true`, `False`/`false`, `None`/`null`/`undefined`,
 * a list, a tuple or a set (both read as lists) or an object, with trailing commas allowed. Returns `undefined` for anything else:
 * identifiers, expressions, calls, f-strings, bytes, spreads, computed or numeric keys.
 */
export function readCodeLiteral(cursor: CodeCursor, options: CodeLiteralOptions, depth = 0): CodeLiteral | undefined {
  const character = cursor.peek();
  if (character === '"' || character === "'" || character === '`') return stringLiteral(cursor, false, options);
  if (character === '[') return readList(cursor, options, depth + 1, ']');
  if (character === '(') return readTuple(cursor, options, depth + 1);
  if (character === '{') {
    const start = cursor.position;
    const object = readObject(cursor, options, depth + 1);
    if (object !== undefined) return object;
    cursor.position = start;
    return readList(cursor, options, depth + 1, '}');
  }
  if (isDigit(character) || character === '-' || character === '+' || character === '.') {
    const number = readCodeNumber(cursor);
    if (number === undefined) return undefined;
    return number.floatText === undefined
      ? { value: number.value }
      : { value: number.value, floatText: number.floatText };
  }
  const start = cursor.position;
  const word = cursor.readIdentifier();
  if (word === undefined) return undefined;
  const next = cursor.peek();
  if (next === '"' || next === "'") {
    // String prefixes are Python's; TypeScript has none.
    if (options.language !== 'typescript' && (word === 'r' || word === 'R'))
      return stringLiteral(cursor, true, options);
    if (options.language !== 'typescript' && (word === 'u' || word === 'U'))
      return stringLiteral(cursor, false, options);
  }
  if (keywords.has(word)) return { value: keywords.get(word) };
  cursor.position = start;
  return undefined;
}

function stringLiteral(cursor: CodeCursor, raw: boolean, options: CodeLiteralOptions): CodeLiteral | undefined {
  const value = readCodeString(cursor, raw, options.language);
  return value === undefined ? undefined : { value };
}

/** A list `[…]`, or with `closer` `}` a Python set `{…}` (read as a list: JSON has no set). */
function readList(
  cursor: CodeCursor,
  options: CodeLiteralOptions,
  depth: number,
  closer: ']' | '}' | ')',
): CodeLiteral | undefined {
  if (depth > maximumDepth) return undefined;
  cursor.position++;
  const items: unknown[] = [];
  for (;;) {
    cursor.skipSpace();
    if (cursor.peek() === closer) break;
    const item = readCodeLiteral(cursor, options, depth);
    if (item === undefined) return undefined;
    items.push(item.value);
    if (!afterItem(cursor, closer)) return undefined;
    if (cursor.peek() === closer) break;
  }
  if (closer === '}' && items.length === 0) return undefined;
  cursor.position++;
  return { value: items };
}

/** A tuple `(a, b)` read as a list; `(x)` without a comma is `x` itself, as in Python. */
function readTuple(cursor: CodeCursor, options: CodeLiteralOptions, depth: number): CodeLiteral | undefined {
  if (depth > maximumDepth) return undefined;
  const start = cursor.position;
  cursor.position++;
  cursor.skipSpace();
  const first = cursor.peek() === ')' ? undefined : readCodeLiteral(cursor, options, depth);
  cursor.skipSpace();
  if (first !== undefined && cursor.peek() === ')') {
    cursor.position++;
    return first;
  }
  cursor.position = start;
  return readList(cursor, options, depth, ')');
}

function readObject(cursor: CodeCursor, options: CodeLiteralOptions, depth: number): CodeLiteral | undefined {
  if (depth > maximumDepth) return undefined;
  cursor.position++;
  const value: Record<string, unknown> = {};
  const members = new Map<string, CodeLiteral>();
  for (;;) {
    cursor.skipSpace();
    if (cursor.peek() === '}') break;
    const key = readKey(cursor, options);
    if (key === undefined) return undefined;
    cursor.skipSpace();
    if (cursor.peek() !== ':') return undefined;
    cursor.position++;
    cursor.skipSpace();
    const member = readCodeLiteral(cursor, options, depth);
    if (member === undefined) return undefined;
    setOwn(value, key, member.value);
    members.set(key, member);
    if (!afterItem(cursor, '}')) return undefined;
    if (cursor.peek() === '}') break;
  }
  cursor.position++;
  return { value, members };
}

function readKey(cursor: CodeCursor, options: CodeLiteralOptions): string | undefined {
  const character = cursor.peek();
  if (character === '"' || character === "'") return readCodeString(cursor, false, options.language);
  const start = cursor.position;
  const word = cursor.readIdentifier();
  if (word === undefined) return undefined;
  const next = cursor.peek();
  if ((next === '"' || next === "'") && (word === 'r' || word === 'R' || word === 'u' || word === 'U')) {
    return readCodeString(cursor, word === 'r' || word === 'R', options.language);
  }
  if (options.bareKeys) return word;
  cursor.position = start;
  return undefined;
}

/** After a list item or object member: skips space, then accepts `,` or the closer (left in place). */
function afterItem(cursor: CodeCursor, closer: string): boolean {
  cursor.skipSpace();
  const character = cursor.peek();
  if (character === ',') {
    cursor.position++;
    return true;
  }
  return character === closer;
}
