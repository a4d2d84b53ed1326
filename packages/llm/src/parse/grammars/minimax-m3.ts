import { isRecord, setOwn } from '../own-properties.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { endsInsidePrefix, skipWhitespace } from '../text-scanning.js';
import { declaresString } from './declared-string.js';
import { parameterValue } from './invoke-xml-arguments.js';

/** MiniMax M3's namespace marker: every structural tag is written right after it. */
export const MINIMAX_NS = ']<]minimax[>[';
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*>/y;
/** Nested parameter tags deeper than this are refused (the block is malformed), never recursed into. */
const MAX_DEPTH = 32;

interface Tag {
  readonly closing: boolean;
  readonly name: string;
  readonly attributes: string;
  /** Where the namespace marker starts (the tag's start) and where the tag ends. */
  readonly start: number;
  readonly end: number;
}

/**
 * @internal MiniMax M3 (source `invoke_xml`), after vLLM's `minimax_m3_tool_parser.py` (M3 is not
 * M2 with renamed tags: every structural tag carries the `]<]minimax[>[` namespace marker, one
 * wrapper may hold several `<invoke>`s, and parameters are named by their own tags, nested
 * arguments by nested tags): `NS<tool_call>NS<invoke name="N">NS<city>Paris NS</city>…NS</invoke>NS</tool_call>`.
 * Only namespaced tags are structure, so plain markup in a value (`<b>`, `</invoke>`) is content;
 * a value's closer is its namespaced closing tag, else (leaked output closes plainly) the first
 * plain one inside the invoke. A parameter the tool declares as a string is its text verbatim;
 * one holding namespaced tags is an object (an array when every child repeats one tag); anything
 * else is JSON when it reads as a number, boolean, null, array or object, else text.
 */
export function createMinimaxM3Grammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const markers = context.finder(MINIMAX_NS);
  // Shared and memoised: a run of unclosed invokes searches the rest of the text once.
  const invokeCloses = context.finder(`${MINIMAX_NS}</invoke>`);

  function tagAt(index: number): Tag | undefined {
    if (!text.startsWith(MINIMAX_NS, index)) return undefined;
    TAG.lastIndex = index + MINIMAX_NS.length;
    const match = TAG.exec(text);
    if (match === null) return undefined;
    return {
      closing: match[1] === '/',
      name: match[2] ?? '',
      attributes: match[3] ?? '',
      start: index,
      end: TAG.lastIndex,
    };
  }

  function findNext(from: number): Block | undefined {
    for (let index = markers.next(from); index >= 0; index = markers.next(index + 1)) {
      const tag = tagAt(index);
      if (tag === undefined) {
        if (mode === 'stream' && text.indexOf('>', index + MINIMAX_NS.length) < 0) {
          return { kind: 'pending', start: index, end: text.length };
        }
        continue;
      }
      if (tag.closing) continue;
      if (tag.name === 'tool_call' || tag.name === 'invoke') return readBlock(tag);
    }
    return undefined;
  }

  function readBlock(opener: Tag): Block {
    const calls: RawCall[] = [];
    let position = opener.name === 'invoke' ? opener.start : opener.end;
    for (;;) {
      position = skipWhitespace(text, position);
      const tag = tagAt(position);
      if (tag === undefined) break;
      if (tag.closing && tag.name === 'tool_call') {
        if (calls.length > 0) return { kind: 'calls', start: opener.start, end: tag.end, calls };
        return {
          kind: 'malformed',
          start: opener.start,
          end: tag.end,
          bodyChars: countCharacters(text, opener.end, tag.start),
        };
      }
      if (tag.closing || tag.name !== 'invoke') break;
      const invoke = readInvoke(tag);
      if (invoke === undefined) break;
      calls.push(invoke.call);
      position = invoke.end;
    }
    if (mode === 'stream') return { kind: 'pending', start: opener.start, end: text.length };
    if (calls.length > 0) return { kind: 'calls', start: opener.start, end: position, calls };
    return { kind: 'unterminated', start: opener.start, end: opener.end };
  }

  function readInvoke(opener: Tag): { call: RawCall; end: number } | undefined {
    const name = /\bname="([^"]*)"/.exec(opener.attributes)?.[1] ?? '';
    if (name === '') return undefined;
    const close = invokeCloses.next(opener.end);
    if (close < 0) return undefined;
    const args = readChildren(opener.end, close, name, 0);
    if (args === undefined || Array.isArray(args)) return undefined;
    return { call: { name, arguments: args, source: 'invoke_xml' }, end: close + MINIMAX_NS.length + 9 };
  }

  /** The namespaced elements in `[start, end)` as an object (or an array of one repeated tag). */
  function readChildren(
    start: number,
    end: number,
    tool: string | undefined,
    depth: number,
  ): Record<string, unknown> | unknown[] | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const entries: Array<[string, unknown]> = [];
    let position = skipWhitespace(text, start, end);
    while (position < end) {
      const tag = tagAt(position);
      if (tag === undefined || tag.closing) return undefined;
      // Searched only inside the invoke, so a long run of tags costs the invoke's length each.
      const inside = text.slice(tag.end, end);
      const spacedAt = inside.indexOf(`${MINIMAX_NS}</${tag.name}>`);
      const spaced = spacedAt < 0 ? -1 : tag.end + spacedAt;
      const namespaced = spaced >= 0;
      const plainAt = namespaced ? -1 : inside.indexOf(`</${tag.name}>`);
      const plain = plainAt < 0 ? -1 : tag.end + plainAt;
      const closeStart = namespaced ? spaced : plain;
      if (closeStart < 0 || closeStart >= end) return undefined;
      const closeEnd = closeStart + (namespaced ? MINIMAX_NS.length : 0) + tag.name.length + 3;
      const raw = text.slice(tag.end, closeStart);
      let value: unknown;
      if (tool !== undefined && declaresString(context.knowledge, tool, tag.name)) value = raw;
      else if (text.startsWith(MINIMAX_NS, skipWhitespace(text, tag.end, closeStart))) {
        value = readChildren(tag.end, closeStart, undefined, depth + 1);
        if (value === undefined) return undefined;
      } else value = parameterValue(raw);
      entries.push([tag.name, value]);
      position = skipWhitespace(text, closeEnd, end);
    }
    if (entries.length > 1 && tool === undefined && entries.every(([key]) => key === entries[0]?.[0])) {
      return entries.map(([, value]) => value);
    }
    const object: Record<string, unknown> = {};
    for (const [key, value] of entries) setOwn(object, key, value);
    return isRecord(object) ? object : undefined;
  }

  function holdFrom(floor: number): number {
    for (let index = Math.max(floor, text.length - MINIMAX_NS.length + 1); index < text.length; index++) {
      if (endsInsidePrefix(text, index, MINIMAX_NS)) return index;
    }
    const marker = text.lastIndexOf(MINIMAX_NS);
    return marker >= floor && text.indexOf('>', marker + MINIMAX_NS.length) < 0 ? marker : -1;
  }

  return { source: 'invoke_xml', findNext, holdFrom };
}
