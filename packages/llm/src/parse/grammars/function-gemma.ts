import { parseJsonStrict } from '../extract-json-values.js';
import { setOwn } from '../own-properties.js';
import { invalidArguments, statedCall } from '../read-stated-arguments.js';
import type { ScanContext } from '../scan-context.js';
import type { Block, Grammar, RawCall } from '../scan-types.js';
import { endsInsidePrefix, isWhitespace, skipWhitespace } from '../text-scanning.js';
import { openerPrefixStart } from './opener-prefix.js';

const OPEN = '<start_function_call>';
const CLOSE = '<end_function_call>';
const ESCAPE = '<escape>';
const NAME = /^call:([A-Za-z0-9_.-]+)\{/;
/** Objects and arrays nested deeper than this are refused (the call is invalid), never recursed into. */
const MAX_DEPTH = 64;

/** A value read at `end`, or `undefined` when the text there is not one (cut off or malformed). */
type Read = { readonly value: unknown; readonly end: number } | undefined;

/**
 * @internal FunctionGemma (source `function_gemma`), after its chat template and vLLM's
 * `functiongemma_tool_parser.py`: `<start_function_call>call:NAME{key:VALUE,…}<end_function_call>`,
 * content allowed before it. A string value is written between two `<escape>` tokens and is taken
 * verbatim (a `}`, a `,` or `<end_function_call>` inside it is content); objects `{k:v}` and arrays
 * `[…]` nest; any other value is a bare token (a JSON number, `true`, `false` or `null`, else its
 * text). A call whose name reads but whose arguments do not is an invalid call (raw text kept);
 * a missing `<end_function_call>` after complete arguments is accepted (end of output).
 */
export function createFunctionGemmaGrammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const opens = context.finder(OPEN);
  const closes = context.finder(CLOSE);
  const escapes = context.finder(ESCAPE);
  /** Whether the last read failed by running out of text (more text could complete it). */
  let hitEnd = false;

  function findNext(from: number): Block | undefined {
    const start = opens.next(from);
    if (start < 0) return undefined;
    const head = NAME.exec(text.slice(start + OPEN.length, start + OPEN.length + 200));
    if (head === null) {
      if (mode === 'stream' && !text.slice(start + OPEN.length).includes('{')) {
        return { kind: 'pending', start, end: text.length };
      }
      return { kind: 'unterminated', start, end: start + OPEN.length };
    }
    const name = head[1] ?? '';
    const bodyStart = start + OPEN.length + head[0].length - 1;
    hitEnd = false;
    const read = readObject(bodyStart, 0);
    if (read !== undefined) {
      const after = skipWhitespace(text, read.end);
      if (text.startsWith(CLOSE, after)) return callBlock(start, after + CLOSE.length, name, read.value);
      if (mode === 'stream' && endsInsidePrefix(text, after, CLOSE))
        return { kind: 'pending', start, end: text.length };
      if (after >= text.length) {
        if (mode === 'stream') return { kind: 'pending', start, end: text.length };
        return callBlock(start, text.length, name, read.value);
      }
    }
    // A stream cut inside the arguments (an open `<escape>` string may still hold the closer, or
    // no closer has come yet) waits.
    const close = closes.next(bodyStart);
    if (mode === 'stream' && read === undefined && (hitEnd || close < 0)) {
      return { kind: 'pending', start, end: text.length };
    }
    if (close < 0) return { kind: 'unterminated', start, end: start + OPEN.length };
    const call = statedCall(
      name,
      invalidArguments(text.slice(bodyStart, close), 'the FunctionGemma arguments do not read'),
      'function_gemma',
    );
    return { kind: 'calls', start, end: close + CLOSE.length, calls: [call] };
  }

  function callBlock(start: number, end: number, name: string, value: unknown): Block {
    const call: RawCall = { name, arguments: value as Record<string, unknown>, source: 'function_gemma' };
    return { kind: 'calls', start, end, calls: [call] };
  }

  /** `{key:value,…}` at `at` (which holds `{`). */
  function readObject(at: number, depth: number): Read {
    if (depth > MAX_DEPTH) return undefined;
    const value: Record<string, unknown> = {};
    let position = skipWhitespace(text, at + 1);
    if (text.charCodeAt(position) === 125) return { value, end: position + 1 };
    for (;;) {
      const colon = text.indexOf(':', position);
      if (colon < 0) return ranOut();
      const key = text.slice(position, colon).trim();
      if (key === '' || /[{}[\],<>]/.test(key)) return undefined;
      const item = readValue(skipWhitespace(text, colon + 1), depth);
      if (item === undefined) return undefined;
      setOwn(value, key, item.value);
      position = skipWhitespace(text, item.end);
      const code = text.charCodeAt(position);
      if (position >= text.length) return ranOut();
      if (code === 125) return { value, end: position + 1 };
      if (code !== 44) return undefined;
      position = skipWhitespace(text, position + 1);
    }
  }

  function readArray(at: number, depth: number): Read {
    if (depth > MAX_DEPTH) return undefined;
    const value: unknown[] = [];
    let position = skipWhitespace(text, at + 1);
    if (text.charCodeAt(position) === 93) return { value, end: position + 1 };
    for (;;) {
      const item = readValue(position, depth);
      if (item === undefined) return undefined;
      value.push(item.value);
      position = skipWhitespace(text, item.end);
      const code = text.charCodeAt(position);
      if (position >= text.length) return ranOut();
      if (code === 93) return { value, end: position + 1 };
      if (code !== 44) return undefined;
      position = skipWhitespace(text, position + 1);
    }
  }

  function readValue(at: number, depth: number): Read {
    if (text.startsWith(ESCAPE, at)) {
      const close = escapes.next(at + ESCAPE.length);
      if (close < 0) return ranOut();
      return { value: text.slice(at + ESCAPE.length, close), end: close + ESCAPE.length };
    }
    const code = text.charCodeAt(at);
    if (code === 123) return readObject(at, depth + 1);
    if (code === 91) return readArray(at, depth + 1);
    let end = at;
    while (end < text.length) {
      const current = text.charCodeAt(end);
      if (current === 44 || current === 125 || current === 93 || current === 60 || isWhitespace(current)) break;
      end++;
    }
    if (end >= text.length) return ranOut();
    if (end === at) return undefined;
    const token = text.slice(at, end);
    const parsed = parseJsonStrict(token);
    return { value: parsed === undefined || typeof parsed.value === 'object' ? token : parsed.value, end };
  }

  function ranOut(): undefined {
    hitEnd = true;
    return undefined;
  }

  function holdFrom(floor: number): number {
    return openerPrefixStart(text, floor, [OPEN]);
  }

  return { source: 'function_gemma', findNext, holdFrom };
}
