import { isRecord, setOwn } from '../own-properties.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar, type RawCall } from '../scan-types.js';
import { skipWhitespace } from '../text-scanning.js';
import { declaresString } from './declared-string.js';
import { parameterValue } from './invoke-xml-arguments.js';
import { openerPrefixStart } from './opener-prefix.js';

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
  const namespacedClosers = context.finder(`${MINIMAX_NS}</`);

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
      if (invoke === undefined) {
        // A started block owns everything to its namespaced closer: an invoke that cannot be read
        // is an invalid call (markup inside it is never another call), never prose.
        const owned = mode === 'batch' ? ownedFailure(opener, tag, calls) : undefined;
        if (owned !== undefined) return owned;
        break;
      }
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

  /**
   * The block from `opener` to its namespaced closer (`</tool_call>` for a wrapper, else the
   * invoke's `</invoke>`), with the invoke at `failed` as an invalid call; undefined when no closer.
   */
  function ownedFailure(opener: Tag, failed: Tag, calls: readonly RawCall[]): Block | undefined {
    const wrapped = opener.name === 'tool_call';
    const closer = wrapped ? `${MINIMAX_NS}</tool_call>` : `${MINIMAX_NS}</invoke>`;
    const close = context.finder(closer).next(failed.end);
    if (close < 0) return undefined;
    const end = close + closer.length;
    const name = /\bname="([^"]*)"/.exec(failed.attributes)?.[1] ?? '';
    if (name === '' && calls.length === 0)
      return { kind: 'malformed', start: opener.start, end, bodyChars: countCharacters(text, opener.end, close) };
    const invalid: RawCall[] =
      name === ''
        ? []
        : [
            {
              name,
              arguments: {},
              source: 'invoke_xml',
              invalid: { raw: text.slice(failed.end, close), reason: 'the invoke could not be read' },
            },
          ];
    return { kind: 'calls', start: opener.start, end, calls: [...calls, ...invalid] };
  }

  /**
   * The first namespaced closer of `name` in `[from, end)`, or -1: found by walking the namespaced
   * closers there (one shared finder, so a run of tags without one costs no search to the end each).
   */
  function namespacedClose(name: string, from: number, end: number): number {
    for (
      let index = namespacedClosers.next(from);
      index >= 0 && index < end;
      index = namespacedClosers.next(index + 1)
    ) {
      const nameAt = index + MINIMAX_NS.length + 2;
      if (text.startsWith(name, nameAt) && text.charCodeAt(nameAt + name.length) === 62) return index;
    }
    return -1;
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
      // Shared forward finders per closer (no copy of the invoke per tag): linear in the invoke.
      // The plain closer is a fallback only when the namespaced one is absent from the whole invoke
      // (leaked output closes plainly), so plain markup in a value never cuts it.
      const spaced = namespacedClose(tag.name, tag.end, end);
      const namespaced = spaced >= 0;
      const plainAt = namespaced ? -1 : context.finder(`</${tag.name}>`).next(tag.end);
      const plain = plainAt >= 0 && plainAt < end ? plainAt : -1;
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
    const partial = openerPrefixStart(text, floor, [MINIMAX_NS]);
    if (partial >= 0) return partial;
    const marker = text.lastIndexOf(MINIMAX_NS);
    return marker >= floor && text.indexOf('>', marker + MINIMAX_NS.length) < 0 ? marker : -1;
  }

  return { source: 'invoke_xml', findNext, holdFrom };
}
