import { endsInsidePrefix, isWhitespace } from '../text-scanning.js';

/** @internal A tag the invoke-XML grammar cares about. */
export type InvokeTag =
  | { readonly kind: 'open'; readonly name: string; readonly end: number }
  | { readonly kind: 'close'; readonly end: number }
  | { readonly kind: 'wrapper'; readonly closing: boolean; readonly prefixed: boolean; readonly end: number }
  | { readonly kind: 'parameter'; readonly name: string; readonly end: number }
  | { readonly kind: 'parameter-close'; readonly end: number };

/** @internal The text ended before the tag could be decided. */
export const PARTIAL_TAG = 'partial';

const keywords = [
  'function_calls',
  'tool_calls',
  'calls',
  'parameter',
  'param',
  'invoke',
  'function',
  'tool_call',
] as const;
const MAX_SPACES = 4;
const MAX_NAMESPACE = 64;
const MAX_ATTRIBUTES = 512;
const nameAttribute = /(?:^|[^\w-])name\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/**
 * @internal Reads the tag at `index` (where `text[index]` is `<`): `<invoke name="x">`,
 * `<function name="x">`, `<function=x>`, closers `</invoke>`, `</function>`, `</tool_call>`,
 * wrappers `<tool_calls>`, `<function_calls>`, `<calls>` (open or close), and `<parameter ...>` /
 * `</parameter>` (MiniCPM 5's `<param …>` / `</param>` too). Any of them may carry a DeepSeek DSML prefix (`｜DSML｜`, one or two ASCII or
 * fullwidth bars each side, spaces allowed) or an XML namespace (`ns:`). Case-insensitive.
 */
export function matchInvokeTag(text: string, lower: string, index: number): InvokeTag | typeof PARTIAL_TAG | undefined {
  const length = text.length;
  let position = index + 1;
  if (position >= length) return PARTIAL_TAG;
  const closing = text.charCodeAt(position) === 47;
  if (closing) position++;
  let prefixed = false;
  let cursor = skipSpaces(text, position);
  if (cursor >= length) return PARTIAL_TAG;
  if (isBar(text.charCodeAt(cursor))) {
    cursor = skipSpaces(text, skipBars(text, cursor));
    if (!lower.startsWith('dsml', cursor)) {
      return cursor >= length || endsInsidePrefix(lower, cursor, 'dsml') ? PARTIAL_TAG : undefined;
    }
    cursor = skipSpaces(text, cursor + 4);
    if (cursor >= length) return PARTIAL_TAG;
    if (!isBar(text.charCodeAt(cursor))) return undefined;
    position = skipSpaces(text, skipBars(text, cursor));
    prefixed = true;
  } else if (isIdentifierStart(text.charCodeAt(position))) {
    let scan = position + 1;
    while (scan < length && scan - position < MAX_NAMESPACE && isIdentifierPart(text.charCodeAt(scan))) scan++;
    if (scan >= length) return PARTIAL_TAG;
    if (text.charCodeAt(scan) === 58) {
      position = scan + 1;
      prefixed = true;
    }
  }
  if (position >= length) return PARTIAL_TAG;
  for (const keyword of keywords) {
    if (endsInsidePrefix(lower, position, keyword)) return PARTIAL_TAG;
  }
  for (const keyword of keywords) {
    if (lower.startsWith(keyword, position)) return afterKeyword(keyword, position + keyword.length);
  }
  return undefined;

  function afterKeyword(keyword: (typeof keywords)[number], at: number): InvokeTag | typeof PARTIAL_TAG | undefined {
    // `<minimax:tool_call>` (a namespaced `tool_call`) wraps MiniMax M2 invoke blocks.
    if (
      keyword === 'function_calls' ||
      keyword === 'tool_calls' ||
      keyword === 'calls' ||
      (keyword === 'tool_call' && prefixed && !lower.startsWith('dsml', index + 1))
    ) {
      const end = closeBracket(text, at);
      return typeof end === 'number' ? { kind: 'wrapper', closing, prefixed, end } : end;
    }
    if (closing) {
      const end = closeBracket(text, at);
      if (typeof end !== 'number') return end;
      return keyword === 'parameter' || keyword === 'param' ? { kind: 'parameter-close', end } : { kind: 'close', end };
    }
    if (keyword === 'tool_call') return undefined;
    // MiniCPM 5 writes `<param name="k">`; `<params>` and the like are other tags.
    if (keyword === 'param' && at < text.length && /[\w-]/.test(text.charAt(at))) return undefined;
    const named = readName(text, at);
    if (named === PARTIAL_TAG || named === undefined) return named;
    return keyword === 'parameter' || keyword === 'param'
      ? { kind: 'parameter', name: named.name, end: named.end }
      : { kind: 'open', name: named.name, end: named.end };
  }
}

/** `\s{0,8}>` at `at`: the index after `>`, or partial / no match. */
function closeBracket(text: string, at: number): number | typeof PARTIAL_TAG | undefined {
  let position = at;
  for (let count = 0; count <= 8; count++, position++) {
    if (position >= text.length) return PARTIAL_TAG;
    const code = text.charCodeAt(position);
    if (code === 62) return position + 1;
    if (!isWhitespace(code)) return undefined;
  }
  return undefined;
}

/** After the keyword: `=NAME ...>` or ` attributes with name="..." >`. */
function readName(text: string, at: number): { name: string; end: number } | typeof PARTIAL_TAG | undefined {
  const length = text.length;
  let position = at;
  while (position < length && position - at <= MAX_SPACES && isWhitespace(text.charCodeAt(position))) position++;
  if (position >= length) return PARTIAL_TAG;
  if (text.charCodeAt(position) === 61) {
    const start = skipSpaces(text, position + 1);
    let scan = start;
    while (scan < length && scan - start < 256) {
      const code = text.charCodeAt(scan);
      if (code === 62 || code === 44 || code === 60 || isWhitespace(code)) break;
      scan++;
    }
    if (scan >= length) return PARTIAL_TAG;
    const name = text.slice(start, scan);
    const end = bracketAfter(text, scan, 256);
    if (typeof end !== 'number') return end;
    return name === '' ? undefined : { name, end };
  }
  if (position === at) return undefined;
  const end = bracketAfter(text, position, MAX_ATTRIBUTES);
  if (typeof end !== 'number') return end;
  const match = nameAttribute.exec(text.slice(at, end - 1));
  if (match === null) return undefined;
  return { name: (match[1] ?? match[2] ?? '').trim(), end };
}

/** `[^<>]{0,limit}>` from `at`. */
function bracketAfter(text: string, at: number, limit: number): number | typeof PARTIAL_TAG | undefined {
  const stop = Math.min(text.length, at + limit + 1);
  for (let position = at; position < stop; position++) {
    const code = text.charCodeAt(position);
    if (code === 62) return position + 1;
    if (code === 60) return undefined;
  }
  return stop >= text.length ? PARTIAL_TAG : undefined;
}

function skipSpaces(text: string, at: number): number {
  let position = at;
  while (position < text.length && position - at < MAX_SPACES && isWhitespace(text.charCodeAt(position))) position++;
  return position;
}

function skipBars(text: string, at: number): number {
  let position = at;
  while (position < text.length && position - at < 2 && isBar(text.charCodeAt(position))) position++;
  return position;
}

function isBar(code: number): boolean {
  return code === 124 || code === 0xff5c;
}

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57) || code === 46 || code === 45;
}
