import type { PformatRegistry } from '../pformat/create-pformat-registry.js';
import { bindCodeArguments, type CodeArgument } from './bind-code-arguments.js';
import { CodeCursor, isLineBreak } from './code-cursor.js';
import { type CodeLiteralOptions, readCodeLiteral } from './read-code-literal.js';

/** A call read from a code-call body. */
export interface CodeCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** Options for {@link parseCodeCallBody}. */
export interface ParseCodeCallOptions {
  /**
   * The dialect the model was taught. `python` refuses bare object keys; `typescript` refuses
   * `name=value` keyword arguments. Absent (the default), both are accepted.
   */
  readonly language?: 'python' | 'typescript' | undefined;
}

/**
 * Reads Python or TypeScript tool calls, such as `search(query="rust agents", limit=5)` or
 * `await functions.search({query: "rust agents"})`, from the body of a call tag.
 *
 * Statements are separated by line breaks or `;`; blank statements and `#` or `//` comments are
 * ignored. Each statement is one call, optionally prefixed by `await`, `x =` or `const|let|var x =`.
 * A dotted callee names the tool by its full text when that is registered, else by its last
 * segment. Arguments must be literals: strings in either quote, triple quotes, backticks without
 * `${}`, `r`/`u` prefixes; decimal numbers; `True`/`true`, `False`/`false`, `None`/`null`/`undefined`;
 * lists; objects with quoted or (except in Python) bare keys; trailing commas allowed.
 *
 * Binding, in P-Format parameter order: positional arguments fill slots; `name=value` keywords
 * must name a parameter; a lone object argument is unpacked as keywords when every key is a
 * parameter, else is the value of a tool's only parameter, else refused. A top-level `None`/`null`
 * omits its argument. A number written with a fraction or exponent stays text (`"5.0"`) when its
 * parameter is an `integer`, so only integer text makes integers.
 *
 * All or nothing: returns `undefined` when any statement is not such a call (prose, an unknown tool,
 * a variable, positional after keyword, a parameter bound twice, too many arguments, trailing
 * tokens after `)`) or when the body holds no call. Runs in linear time and never throws.
 */
export function parseCodeCallBody(
  body: string,
  registry: PformatRegistry,
  options: ParseCodeCallOptions = {},
): CodeCall[] | undefined {
  const cursor = new CodeCursor(body);
  const literalOptions: CodeLiteralOptions = { bareKeys: options.language !== 'python', language: options.language };
  const keywords = options.language !== 'typescript';
  const calls: CodeCall[] = [];
  for (;;) {
    skipSeparators(cursor);
    if (cursor.atEnd) break;
    const call = readStatement(cursor, registry, literalOptions, keywords);
    if (call === undefined) return undefined;
    calls.push(call);
    cursor.skipInlineSpace();
    const next = cursor.peek();
    if (!cursor.atEnd && next !== ';' && !isLineBreak(next)) return undefined;
  }
  return calls.length > 0 ? calls : undefined;
}

function skipSeparators(cursor: CodeCursor): void {
  for (;;) {
    cursor.skipSpace();
    if (cursor.peek() !== ';') return;
    cursor.position++;
  }
}

function readStatement(
  cursor: CodeCursor,
  registry: PformatRegistry,
  literalOptions: CodeLiteralOptions,
  keywords: boolean,
): CodeCall | undefined {
  let word = cursor.readIdentifier();
  // A tool may be named like a keyword (`let`, `await`): followed by `(`, the word is that call.
  const keyword = word !== undefined && !callsTool(cursor, registry, word);
  if (keyword && (word === 'const' || word === 'let' || word === 'var')) {
    cursor.skipInlineSpace();
    if (cursor.readIdentifier() === undefined) return undefined;
    word = readAfterAssignment(cursor);
  } else if (word !== undefined && (word !== 'await' || !keyword)) {
    const afterWord = cursor.position;
    cursor.skipInlineSpace();
    if (cursor.peek() === '=' && cursor.peek(1) !== '=') {
      word = readAfterAssignment(cursor, true);
    } else {
      cursor.position = afterWord;
    }
  }
  if (word === 'await' && keyword) {
    cursor.skipInlineSpace();
    word = cursor.readIdentifier();
  }
  if (word === undefined) return undefined;

  const segments = [word];
  while (cursor.peek() === '.') {
    cursor.position++;
    const segment = cursor.readIdentifier();
    if (segment === undefined) return undefined;
    segments.push(segment);
  }
  const dotted = segments.join('.');
  const name = registry.has(dotted) ? dotted : (segments[segments.length - 1] ?? '');
  const parameters = registry.get(name);
  if (parameters === undefined) return undefined;

  cursor.skipInlineSpace();
  if (cursor.peek() !== '(') return undefined;
  cursor.position++;
  const written = readArguments(cursor, literalOptions, keywords);
  if (written === undefined) return undefined;
  const args = bindCodeArguments(written, parameters);
  return args === undefined ? undefined : { name, arguments: args };
}

/** Whether `word`, just read, names an offered tool and `(` follows it (the cursor stays put). */
function callsTool(cursor: CodeCursor, registry: PformatRegistry, word: string): boolean {
  if (!registry.has(word)) return false;
  const at = cursor.position;
  cursor.skipInlineSpace();
  const opens = cursor.peek() === '(';
  cursor.position = at;
  return opens;
}

/** Expects `=` (already at it when `atEquals`), then reads the word after it. */
function readAfterAssignment(cursor: CodeCursor, atEquals = false): string | undefined {
  if (!atEquals) cursor.skipInlineSpace();
  if (cursor.peek() !== '=' || cursor.peek(1) === '=') return undefined;
  cursor.position++;
  cursor.skipInlineSpace();
  return cursor.readIdentifier();
}

/** Reads arguments after `(` through the matching `)`. */
function readArguments(
  cursor: CodeCursor,
  literalOptions: CodeLiteralOptions,
  keywords: boolean,
): CodeArgument[] | undefined {
  const written: CodeArgument[] = [];
  for (;;) {
    cursor.skipSpace();
    if (cursor.peek() === ')') break;
    const start = cursor.position;
    const name = cursor.readIdentifier();
    if (name !== undefined) cursor.skipSpace();
    if (name !== undefined && cursor.peek() === '=' && cursor.peek(1) !== '=') {
      if (!keywords) return undefined;
      cursor.position++;
      cursor.skipSpace();
      const literal = readCodeLiteral(cursor, literalOptions);
      if (literal === undefined) return undefined;
      written.push({ kind: 'keyword', name, literal });
    } else {
      cursor.position = start;
      const literal = readCodeLiteral(cursor, literalOptions);
      if (literal === undefined) return undefined;
      written.push({ kind: 'positional', literal });
    }
    cursor.skipSpace();
    if (cursor.peek() === ',') {
      cursor.position++;
    } else if (cursor.peek() !== ')') {
      return undefined;
    }
  }
  cursor.position++;
  return written;
}
