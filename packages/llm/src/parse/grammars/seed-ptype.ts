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
 * failed decode is an invalid call, and text after `(` that can never be an argument list is prose
 * ({@link ptypeCallOpened}). A started call whose `)` never comes runs to the end of the text as an
 * invalid call (`unterminated`) in a complete text and is pending in a stream: markup inside it is
 * never read as another call.
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
      const broken = ptypeCallOpened(text, bestStart, best.tool);
      // `search( with a query`: what follows the parenthesis is no argument list. A `)` within the
      // repair window still makes it an invalid call the model can repair; past it, it is prose.
      const end = broken < 0 ? matchParenthesis(open) : matchWithin(open, broken + PTYPE_REPAIR_WINDOW);
      if (end < 0) {
        if (broken >= 0) {
          if (mode === 'stream' && text.length - broken < PTYPE_REPAIR_WINDOW) {
            return { kind: 'pending', start: bestStart, end: text.length };
          }
          cursor = bestStart + 1;
          continue;
        }
        if (mode === 'stream') return { kind: 'pending', start: bestStart, end: text.length };
        // A call that started and never closed (`search("a <weather>…` with its string still open):
        // everything after its opener is its content, never another call. An invalid call.
        const invalid = { raw: text.slice(bestStart), reason: `unterminated: \`${best.tool.name}(\` is never closed` };
        return {
          kind: 'calls',
          start: bestStart,
          end: text.length,
          calls: [{ name: best.tool.name, arguments: {}, source: 'ptype', invalid }],
          unterminated: true,
        };
      }
      const callText = text.slice(bestStart, end);
      const call = safeParse(callText, best.tool);
      if (
        'syntaxAt' in call &&
        call.syntaxAt !== undefined &&
        end - (bestStart + call.syntaxAt) > PTYPE_REPAIR_WINDOW
      ) {
        // No argument list (`search( with a query … )`) and the `)` comes past the repair window:
        // prose, as a stream decided once the window was passed.
        cursor = bestStart + 1;
        continue;
      }
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

  /**
   * As {@link matchParenthesis}, for an opener whose argument list broke: only a closing bracket
   * before `limit` counts (else -1), so a `name(` in prose costs at most the repair window.
   */
  function matchWithin(open: number, limit: number): number {
    let depth = 0;
    let quote = 0;
    const stop = Math.min(limit, text.length);
    for (let index = open; index < stop; index++) {
      const code = text.charCodeAt(index);
      if (quote !== 0) {
        if (code === 92) index++;
        else if (code === quote) quote = 0;
        continue;
      }
      if (code === 34 || code === 39 || code === 96) quote = code;
      else if (code === 40 || code === 91 || code === 123) depth++;
      else if ((code === 41 || code === 93 || code === 125) && --depth === 0) return index + 1;
    }
    return -1;
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
): { name: string; arguments: Record<string, unknown> } | { reason?: string; syntaxAt?: number } {
  try {
    const result = parsePtypeCall(callText, tool);
    if (result.ok) return { name: tool.name, arguments: result.call.arguments };
    const reason = `${result.error.kind}: ${result.error.reason}`;
    return result.error.kind === 'syntax' ? { reason, syntaxAt: result.error.offset ?? 0 } : { reason };
  } catch {
    return {};
  }
}

/**
 * How far (in code units from the tool name) an argument list must stay well-formed for the call
 * to count as started: a call whose first 256 characters are an unfinished argument list owns the
 * rest of the text if it never closes.
 */
const OPENED_WINDOW = 256;
/** A tail that more text could still complete into a literal: a number, `true`, `false` or `null` being written. */
const LITERAL_TAIL =
  /^(?:-?[0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]*)?|t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?)$/;

/** Whether the text from `offset` to its end is a literal still being written (`tru`, `1.`, `-`). */
function literalTail(text: string, offset: number | undefined): boolean {
  return offset !== undefined && text.length - offset <= 32 && LITERAL_TAIL.test(text.slice(offset));
}

/**
 * @internal How far (in code units) past the first character that is no argument list a p-type
 * call's `)` may come and still make it an invalid call the model can repair
 * (`search(query="rust")`); past it the text is prose. It bounds what a stream holds for a
 * `name(` that is not a call.
 */
export const PTYPE_REPAIR_WINDOW = 80;

/**
 * @internal For a p-type opener at `start` (`name(` at a word boundary): -1 when its first
 * characters (up to 256) are a well-formed or unfinished argument list (an open string, list or
 * object, a value still being written: a call that started), else the index of the first character
 * that can never belong to one (`search( with a query`: the `w`). Only the text from `start`
 * decides, so a stream and a complete text agree.
 */
export function ptypeCallOpened(text: string, start: number, tool: ToolSchema): number {
  const verdict = (window: string): number | 'more' => {
    let result: ReturnType<typeof parsePtypeCall>;
    try {
      result = parsePtypeCall(window, tool);
    } catch {
      return 0;
    }
    if (result.ok || result.error.kind !== 'syntax') return 'more';
    const offset = result.error.offset ?? 0;
    return literalTail(window, offset) ? 'more' : offset;
  };
  const near = verdict(text.slice(start, start + OPENED_WINDOW));
  return near === 'more' ? -1 : start + near;
}
