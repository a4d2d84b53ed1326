import { parseXmlCall } from '../../formats/xml-format.js';
import type { ToolSchema } from '../../spec/tool-schema.js';
import type { ForwardFinder } from '../forward-finder.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar } from '../scan-types.js';
import { isWhitespace } from '../text-scanning.js';
import { templateTrim } from './invoke-xml-arguments.js';
import { openerPrefixStart } from './opener-prefix.js';

interface XmlTool {
  readonly tool: ToolSchema;
  readonly open: string;
  readonly close: string;
  readonly opens: ForwardFinder;
  readonly closes: ForwardFinder;
}

/**
 * @internal Whether an element-per-field call starts at the opener that ends at `bodyStart`: the
 * first non-whitespace after it must open a field element or close the call (`<` and a
 * non-whitespace character). `call` when it does, `prose` when something else follows (the tool's
 * name written in prose, `<weather> tags`), `undecided` when the text ends first. Whitespace after
 * the opener is the only unbounded wait (a stream holds it; any other character decides).
 */
export function xmlCallOpened(text: string, bodyStart: number): 'call' | 'prose' | 'undecided' {
  let index = bodyStart;
  while (index < text.length && isWhitespace(text.charCodeAt(index))) index++;
  if (index >= text.length) return 'undecided';
  if (text.charCodeAt(index) !== 60) return 'prose';
  if (index + 1 >= text.length) return 'undecided';
  return isWhitespace(text.charCodeAt(index + 1)) ? 'prose' : 'call';
}

/**
 * @internal The seed's element-per-field XML form (source `xml_element`), only for tools whose
 * `format` is `{type: 'xml'}`: `<weather><city>Oslo</city></weather>`, from `<name>` to the first
 * `</name>` (exact, case-sensitive name). The element is decoded by `parseXmlCall`; a failed decode is
 * an invalid call, never a guessed one. A call starts only where the opener is followed by an
 * element ({@link xmlCallOpened}); once started, everything up to its closer is its content, and a
 * call whose closer never comes runs to the end of the text as an invalid call (`unterminated`):
 * markup inside it is never read as another call. Model-written string fields are then trimmed as Cline's
 * parser trims them ({@link clineTrim}); `parseXmlCall` itself stays lossless for rendered calls.
 */
export function createSeedXmlGrammar(context: ScanContext, tools: readonly ToolSchema[]): Grammar {
  const { text, mode } = context;
  const entries: XmlTool[] = tools.map((tool) => {
    const open = `<${tool.name}>`;
    const close = `</${tool.name}>`;
    return { tool, open, close, opens: context.finder(open), closes: context.finder(close) };
  });

  function findNext(from: number): Block | undefined {
    let cursor = from;
    for (;;) {
      let best: XmlTool | undefined;
      let bestStart = -1;
      for (const entry of entries) {
        const start = entry.opens.next(cursor);
        if (start >= 0 && (bestStart < 0 || start < bestStart)) {
          best = entry;
          bestStart = start;
        }
      }
      if (best === undefined) return undefined;
      const bodyStart = bestStart + best.open.length;
      const opened = xmlCallOpened(text, bodyStart);
      if (opened === 'prose') {
        // `<weather> tags` names the tool in prose: no element follows the opener, so no call starts.
        cursor = bestStart + 1;
        continue;
      }
      const close = best.closes.next(bodyStart);
      if (close < 0) {
        if (mode === 'stream') return { kind: 'pending', start: bestStart, end: text.length };
        // A call that started and never closed (`<weather><city>Par`, `</weathr>`): everything after
        // its opener is its content, so nothing in it is read as another call. An invalid call.
        const reason = `unterminated: <${best.tool.name}> is never closed by </${best.tool.name}>`;
        const invalid = { raw: text.slice(bestStart), reason };
        return {
          kind: 'calls',
          start: bestStart,
          end: text.length,
          calls: [{ name: best.tool.name, arguments: {}, source: 'xml_element', invalid }],
          unterminated: true,
        };
      }
      const end = close + best.close.length;
      const element = text.slice(bestStart, end);
      const result = safeParse(element, best.tool);
      if ('arguments' in result) {
        return { kind: 'calls', start: bestStart, end, calls: [{ ...result, source: 'xml_element' }] };
      }
      // The element names an offered xml tool but does not decode (`<weather><city>Paris</weather>`):
      // an invalid call, so admission answers with a tool error the model can repair; never run.
      if (result.reason !== undefined) {
        const invalid = { raw: element, reason: result.reason };
        return {
          kind: 'calls',
          start: bestStart,
          end,
          calls: [{ name: best.tool.name, arguments: {}, source: 'xml_element', invalid }],
        };
      }
      return { kind: 'malformed', start: bestStart, end, bodyChars: countCharacters(text, bodyStart, close) };
    }
  }

  const openTexts = entries.map((entry) => entry.open);

  function holdFrom(floor: number): number {
    return openerPrefixStart(text, floor, openTexts);
  }

  return { source: 'xml_element', findNext, holdFrom };
}

function safeParse(
  element: string,
  tool: ToolSchema,
): { name: string; arguments: Record<string, unknown> } | { reason?: string } {
  try {
    const result = parseXmlCall(element, tool);
    return result.ok
      ? { name: tool.name, arguments: clineTrim(result.call.arguments) }
      : { reason: `${result.error.kind}: ${result.error.reason}` };
  } catch {
    return {};
  }
}

/**
 * @internal Cline's rule for the string value of a top-level field written by a model
 * (`parseAssistantMessageV2`): surrounding whitespace is trimmed, except in a field named
 * `content` (a file body), where only the one newline after the opening tag and the one before
 * the closing tag are removed, so the file keeps its indentation and blank lines. Values that are
 * not strings are left as decoded.
 */
export function clineTrim(args: Record<string, unknown>): Record<string, unknown> {
  const trimmed: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    const value = args[key];
    const written = typeof value !== 'string' ? value : key === 'content' ? templateTrim(value) : value.trim();
    Object.defineProperty(trimmed, key, { value: written, enumerable: true, writable: true, configurable: true });
  }
  return trimmed;
}
