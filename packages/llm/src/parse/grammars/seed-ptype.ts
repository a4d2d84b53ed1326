import { parsePtypeCall } from '../../formats/ptype-format.js';
import type { ToolSchema } from '../../spec/tool-schema.js';
import { type ForwardFinder, memoizeForward } from '../forward-finder.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar } from '../scan-types.js';
import { isWhitespace } from '../text-scanning.js';

interface PtypeTool {
  readonly tool: ToolSchema;
  readonly needle: string;
  readonly candidates: ForwardFinder;
}

/**
 * @internal The seed's positional p-type form (source `ptype`), only for tools whose `format` is
 * `{type: 'ptype'}`: `search("rust agents", 5)` at the start of the text or after whitespace, up to
 * its matching `)` (quotes and brackets respected). The call text is decoded by `parsePtypeCall`; a
 * failed decode is a malformed block. A call whose `)` never comes is prose in a complete text and
 * pending in a stream.
 */
export function createSeedPtypeGrammar(context: ScanContext, tools: readonly ToolSchema[]): Grammar {
  const { text, mode } = context;
  const closes = new Map<number, number>();
  const boundaryBefore = (index: number): boolean =>
    index === 0
      ? context.previousCode < 0 || isWhitespace(context.previousCode)
      : isWhitespace(text.charCodeAt(index - 1));
  const entries: PtypeTool[] = tools.map((tool) => {
    const needle = `${tool.name}(`;
    const hits = context.finder(needle);
    const candidates = memoizeForward((from) => {
      for (let index = hits.next(from); index >= 0; index = hits.next(index + 1)) {
        if (boundaryBefore(index)) return index;
      }
      return -1;
    });
    return { tool, needle, candidates };
  });

  function findNext(from: number): Block | undefined {
    let cursor = from;
    for (;;) {
      let best: PtypeTool | undefined;
      let bestStart = -1;
      for (const entry of entries) {
        const start = entry.candidates.next(cursor);
        if (start >= 0 && (bestStart < 0 || start < bestStart)) {
          best = entry;
          bestStart = start;
        }
      }
      if (best === undefined) return undefined;
      const open = bestStart + best.needle.length - 1;
      const end = matchParenthesis(open);
      if (end < 0) {
        if (mode === 'stream') return { kind: 'pending', start: bestStart, end: text.length };
        cursor = bestStart + 1;
        continue;
      }
      const callText = text.slice(bestStart, end);
      const call = safeParse(callText, best.tool);
      if ('arguments' in call) return { kind: 'calls', start: bestStart, end, calls: [{ ...call, source: 'ptype' }] };
      // A call to an offered ptype tool that does not decode is an invalid call (a repairable tool error).
      if (call.reason !== undefined) {
        const invalid = { raw: callText, reason: call.reason };
        return {
          kind: 'calls',
          start: bestStart,
          end,
          calls: [{ name: best.tool.name, arguments: {}, source: 'ptype', invalid }],
        };
      }
      return { kind: 'malformed', start: bestStart, end, bodyChars: countCharacters(text, open + 1, end - 1) };
    }
  }

  /** The index after the bracket closing the one at `open`, or -1; remembers every inner answer. */
  function matchParenthesis(open: number): number {
    const known = closes.get(open);
    if (known !== undefined) return known;
    const stack: number[] = [open];
    let quote = 0;
    for (let index = open + 1; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (quote !== 0) {
        if (code === 92) index++;
        else if (code === quote) quote = 0;
        continue;
      }
      if (code === 34 || code === 39 || code === 96) quote = code;
      else if (code === 40 || code === 91 || code === 123) stack.push(index);
      else if (code === 41 || code === 93 || code === 125) {
        const top = stack.pop() ?? open;
        closes.set(top, index + 1);
        if (stack.length === 0) return index + 1;
      }
    }
    for (const position of stack) closes.set(position, -1);
    return -1;
  }

  const needles = entries.map((entry) => entry.needle);
  function holdFrom(floor: number): number {
    return ptypeHoldStart(text, floor, context.previousCode, needles);
  }

  return { source: 'ptype', findNext, holdFrom };
}

/**
 * @internal Where a stream must hold the end of `text` because its last word (after whitespace,
 * or after the stream's previous code unit `previousCode` at index 0) could still grow into one of
 * the p-type `needles` (`name(`), or -1. The grammar's `holdFrom`, shared with the stream
 * scrubber's check for text that needs no scan.
 */
export function ptypeHoldStart(text: string, floor: number, previousCode: number, needles: readonly string[]): number {
  let start = text.length;
  const limit = Math.max(floor, text.length - 200);
  while (start > limit && !isWhitespace(text.charCodeAt(start - 1))) start--;
  if (start >= text.length) return -1;
  const boundary =
    start === 0 ? previousCode < 0 || isWhitespace(previousCode) : isWhitespace(text.charCodeAt(start - 1));
  if (!boundary) return -1;
  const tail = text.slice(start);
  return needles.some((needle) => needle.length > tail.length && needle.startsWith(tail)) ? start : -1;
}

function safeParse(
  callText: string,
  tool: ToolSchema,
): { name: string; arguments: Record<string, unknown> } | { reason?: string } {
  try {
    const result = parsePtypeCall(callText, tool);
    return result.ok
      ? { name: tool.name, arguments: result.call.arguments }
      : { reason: `${result.error.kind}: ${result.error.reason}` };
  } catch {
    return {};
  }
}
