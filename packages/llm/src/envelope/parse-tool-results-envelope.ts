import { unescapeEnvelopeAttribute } from './escape-envelope-attribute.js';
import { unescapeResultBody } from './escape-result-body.js';
import { isAsciiWhitespace, matchToolResultTag } from './match-envelope-tag.js';

/** One `<tool_result>` block read back out of an envelope, with attributes and body unescaped. */
export interface ParsedToolResult {
  readonly attributes: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The next `<tool_result` opener (or `</tool_result` closer) at or after `from`. */
function findTag(text: string, from: number, closing: boolean): { start: number; nameEnd: number } | undefined {
  let index = text.indexOf('<', from);
  while (index >= 0) {
    const tag = matchToolResultTag(text, index + 1);
    if (tag !== undefined && tag.closing === closing) return { start: index, nameEnd: tag.end };
    index = text.indexOf('<', index + 1);
  }
  return undefined;
}

/** Reads `name="value"` pairs; anything else between them is skipped. */
function parseAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let index = 0;
  while (index < source.length) {
    if (isAsciiWhitespace(source.charCodeAt(index))) {
      index += 1;
      continue;
    }
    const nameStart = index;
    while (index < source.length && source[index] !== '=' && !isAsciiWhitespace(source.charCodeAt(index))) index += 1;
    const name = source.slice(nameStart, index);
    if (source[index] !== '=' || source[index + 1] !== '"') {
      index = Math.max(index, nameStart + 1);
      continue;
    }
    const valueEnd = source.indexOf('"', index + 2);
    if (valueEnd < 0) break;
    if (name !== '') attributes[name] = unescapeEnvelopeAttribute(source.slice(index + 2, valueEnd));
    index = valueEnd + 1;
  }
  return attributes;
}

/**
 * Reads the `<tool_result …>` blocks out of a folded tool-results turn (the `[Tool results]`
 * line is optional), in order. Each body loses the line break the envelope adds on either side
 * and is unescaped, so a body comes back byte for byte as the tool wrote it. A block is closed by
 * the first `</tool_result` after it; an opener without a closer ends the scan. Linear time;
 * never throws.
 */
export function parseToolResultsEnvelope(text: string): ParsedToolResult[] {
  const results: ParsedToolResult[] = [];
  let cursor = 0;
  while (cursor < text.length) {
    const opener = findTag(text, cursor, false);
    if (opener === undefined) break;
    const openerEnd = text.indexOf('>', opener.nameEnd);
    if (openerEnd < 0) break;
    const selfClosing = text[openerEnd - 1] === '/' && openerEnd - 1 >= opener.nameEnd;
    const attributes = parseAttributes(text.slice(opener.nameEnd, selfClosing ? openerEnd - 1 : openerEnd));
    if (selfClosing) {
      results.push({ attributes, body: '' });
      cursor = openerEnd + 1;
      continue;
    }
    const closer = findTag(text, openerEnd + 1, true);
    if (closer === undefined) break;
    let bodyStart = openerEnd + 1;
    let bodyEnd = closer.start;
    if (text[bodyStart] === '\n' && bodyStart < bodyEnd) bodyStart += 1;
    if (text[bodyEnd - 1] === '\n' && bodyEnd > bodyStart) bodyEnd -= 1;
    results.push({ attributes, body: unescapeResultBody(text.slice(bodyStart, bodyEnd)) });
    const closerEnd = text.indexOf('>', closer.nameEnd);
    cursor = closerEnd < 0 ? text.length : closerEnd + 1;
  }
  return results;
}
