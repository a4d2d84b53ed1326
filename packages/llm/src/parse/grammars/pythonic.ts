import { CodeCursor } from '../../code-call/code-cursor.js';
import { type CodeLiteral, readCodeLiteral } from '../../code-call/read-code-literal.js';
import { setOwn } from '../../pformat/json-value.js';
import type { ScanContext, ToolKnowledge } from '../scan-context.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { openerPrefixStart } from './opener-prefix.js';

/**
 * Pythonic call lists (source `pythonic`): Llama 3.2 / 3.3 and Llama 4 tool prompts, vLLM's
 * `pythonic` parser, LFM2. The response is a Python list of calls,
 * `[get_weather(city='San Francisco'), register_user(name='x', age=37, role=None)]`, bare (the whole
 * response, see {@link readWholePythonicList}) or wrapped in `<|python_start|>…<|python_end|>`
 * (Llama 4; the closer may be missing) or `<|tool_call_start|>…<|tool_call_end|>` (LFM2, which may
 * write text after the block).
 *
 * Values are Python literals (single or double quotes, `True`/`False`/`None`, lists, tuples and sets
 * as lists, dicts); dotted callees name the tool by their full text when offered, else by the last
 * segment. A list is read only when every callee names an offered tool. A call whose arguments cannot
 * be read as literals (a bytes literal, a non-finite number, a variable) is an invalid call (it
 * reaches admission, which answers it with an error) while its readable siblings run; `[]` holds
 * no call.
 */
const wrappers: ReadonlyArray<readonly [string, string]> = [
  ['<|python_start|>', '<|python_end|>'],
  ['<|tool_call_start|>', '<|tool_call_end|>'],
];

/** @internal What a pythonic list held: its calls, and how many siblings could not be read. */
export interface PythonicList {
  readonly calls: RawCall[];
  /** Kept for callers: siblings are no longer dropped (an unreadable one is an invalid call). */
  readonly dropped: string[];
}

/** @internal The wrapped forms, as a scan grammar (needs offered tools to read anything). */
export function createPythonicGrammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const openers = wrappers.map(([open]) => context.finder(open));
  const openerTexts = wrappers.map(([open]) => open);
  const closers = wrappers.map(([, close]) => context.finder(close));

  function findNext(from: number): Block | undefined {
    let start = -1;
    let which = -1;
    openers.forEach((finder, index) => {
      const at = finder.next(from);
      if (at >= 0 && (start < 0 || at < start)) {
        start = at;
        which = index;
      }
    });
    if (start < 0) return undefined;
    const [open, close] = wrappers[which] ?? ['', ''];
    const bodyStart = start + open.length;
    const closeAt = closers[which]?.next(bodyStart) ?? -1;
    if (closeAt < 0 && mode === 'stream') return { kind: 'pending', start, end: text.length };
    const bodyEnd = closeAt < 0 ? text.length : closeAt;
    const end = closeAt < 0 ? text.length : closeAt + close.length;
    const list = readPythonicList(text.slice(bodyStart, bodyEnd), context.knowledge);
    if (list === undefined) {
      if (closeAt < 0) return { kind: 'unterminated', start, end: bodyStart };
      return { kind: 'malformed', start, end, bodyChars: countCharacters(text, bodyStart, bodyEnd) };
    }
    if (list.calls.length === 0 && list.dropped.length === 0) return { kind: 'furniture', start, end };
    if (list.calls.length === 0)
      return { kind: 'malformed', start, end, bodyChars: countCharacters(text, bodyStart, bodyEnd) };
    return { kind: 'calls', start, end, calls: list.calls, dropped: list.dropped };
  }

  function holdFrom(floor: number): number {
    return openerPrefixStart(text, floor, openerTexts);
  }

  return { source: 'pythonic', findNext, holdFrom };
}

const leadingTokens = ['<|python_tag|>'];
const trailingTokens = ['<|eom_id|>', '<|eot_id|>', '<|eom|>', '<|eot|>'];

/**
 * @internal A whole response that is exactly one pythonic list (Llama 3.2 / 3.3 write it bare),
 * `undefined` otherwise (also when no call in it could be read: then it stays text). Chat-template
 * end tokens at the very end are ignored.
 */
export function readWholePythonicList(text: string, knowledge: ToolKnowledge): PythonicList | undefined {
  let body = text.trim();
  for (const token of leadingTokens) if (body.startsWith(token)) body = body.slice(token.length).trimStart();
  for (let again = true; again; ) {
    again = false;
    for (const token of trailingTokens) {
      if (body.endsWith(token)) {
        body = body.slice(0, -token.length).trimEnd();
        again = true;
      }
    }
  }
  if (!body.startsWith('[') || !body.endsWith(']')) return undefined;
  const list = readPythonicList(body, knowledge);
  return list === undefined || list.calls.length === 0 ? undefined : list;
}

/**
 * @internal Reads `[call, call, …]` filling all of `body` (surrounding whitespace allowed), or
 * `undefined` when it is not such a list or a callee is not an offered tool. Linear in the body.
 */
/** Why a pythonic call whose arguments are not literals is invalid. */
const UNREADABLE = 'the call arguments could not be read as literals';

export function readPythonicList(body: string, knowledge: ToolKnowledge): PythonicList | undefined {
  const registry = knowledge.registry;
  if (registry === undefined) return undefined;
  const cursor = new CodeCursor(body);
  cursor.skipSpace();
  if (cursor.peek() !== '[') return undefined;
  cursor.position++;
  const calls: RawCall[] = [];
  const dropped: string[] = [];
  for (;;) {
    cursor.skipSpace();
    if (cursor.peek() === ']') break;
    const name = readCallee(cursor);
    if (name === undefined) return undefined;
    const tool = registry.has(name) ? name : name.slice(name.lastIndexOf('.') + 1);
    const parameters = registry.get(tool);
    if (parameters === undefined) return undefined;
    cursor.skipSpace();
    if (cursor.peek() !== '(') return undefined;
    const open = cursor.position;
    cursor.position++;
    const args = readArguments(cursor, parameters.names);
    if (args === undefined) {
      const after = skipBalanced(body, open);
      if (after < 0) return undefined;
      cursor.position = after;
      // The bad sibling reaches admission as an invalid call (the model gets an error row for it);
      // the good ones still run.
      const raw = body.slice(open, after);
      calls.push({ name: tool, arguments: {}, source: 'pythonic', invalid: { raw, reason: UNREADABLE } });
    } else {
      calls.push({ name: tool, arguments: args, source: 'pythonic' });
    }
    cursor.skipSpace();
    if (cursor.peek() === ',') {
      cursor.position++;
      continue;
    }
    if (cursor.peek() !== ']') return undefined;
  }
  cursor.position++;
  cursor.skipSpace();
  if (!cursor.atEnd) return undefined;
  return { calls, dropped };
}

function readCallee(cursor: CodeCursor): string | undefined {
  const first = cursor.readIdentifier();
  if (first === undefined) return undefined;
  const segments = [first];
  while (cursor.peek() === '.') {
    cursor.position++;
    const segment = cursor.readIdentifier();
    if (segment === undefined) return undefined;
    segments.push(segment);
  }
  return segments.join('.');
}

/** Keyword (`name=value`) and, for tools with known parameters, positional arguments through `)`. */
function readArguments(cursor: CodeCursor, names: readonly string[]): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  let slot = 0;
  let sawKeyword = false;
  for (;;) {
    cursor.skipSpace();
    if (cursor.peek() === ')') break;
    const start = cursor.position;
    const keyword = cursor.readIdentifier();
    let literal: CodeLiteral | undefined;
    let key: string | undefined;
    cursor.skipSpace();
    if (keyword !== undefined && cursor.peek() === '=' && cursor.peek(1) !== '=') {
      cursor.position++;
      cursor.skipSpace();
      sawKeyword = true;
      key = keyword;
      literal = readCodeLiteral(cursor, { bareKeys: false, language: 'python' });
    } else {
      cursor.position = start;
      if (sawKeyword) return undefined;
      key = names[slot++];
      literal = readCodeLiteral(cursor, { bareKeys: false, language: 'python' });
    }
    if (literal === undefined || key === undefined || Object.hasOwn(args, key)) return undefined;
    setOwn(args, key, literal.value);
    cursor.skipSpace();
    if (cursor.peek() === ',') cursor.position++;
    else if (cursor.peek() !== ')') return undefined;
  }
  cursor.position++;
  return args;
}

/**
 * The index after the `)` matching the `(` at `open`, skipping quoted strings (with backslash
 * escapes) and nested brackets; -1 when the text ends first or brackets do not match.
 */
function skipBalanced(text: string, open: number): number {
  const stack: string[] = [];
  for (let index = open; index < text.length; index++) {
    const character = text[index];
    if (character === '"' || character === "'") {
      const quote = character;
      for (index++; index < text.length && text[index] !== quote; index++) {
        if (text[index] === '\\') index++;
      }
      if (index >= text.length) return -1;
      continue;
    }
    if (character === '(') stack.push(')');
    else if (character === '[') stack.push(']');
    else if (character === '{') stack.push('}');
    else if (character === ')' || character === ']' || character === '}') {
      if (stack.pop() !== character) return -1;
      if (stack.length === 0) return index + 1;
    }
  }
  return -1;
}
