/**
 * Chat-template markers that leak into tool-call argument text (Kimi, Gemma and Hermes style
 * templates). Longest first, so a marker that begins with another one is matched whole.
 * @internal
 */
export const TEMPLATE_MARKERS: readonly string[] = [
  '<|tool_calls_section_begin|>',
  '<|tool_calls_section_end|>',
  '<|tool_call_argument_begin|>',
  '<|tool_call_begin|>',
  '<|tool_call_end|>',
  '<|tool_call|>',
  '<|tool_sep|>',
  '<tool_call|>',
  '</tool_call>',
  '<tool_call>',
];

/**
 * Length of the template marker starting at `index` of `text`, or 0 when none starts there.
 * Returns 0 at once unless `text[index]` is `<`; never looks past the longest marker.
 * @internal
 */
export function templateMarkerLength(text: string, index: number): number {
  if (text.charCodeAt(index) !== 60) return 0;
  for (const marker of TEMPLATE_MARKERS) {
    if (text.startsWith(marker, index)) return marker.length;
  }
  return 0;
}

const leakedQuoteToken = /<\|"\|?>/g;

/**
 * Replaces leaked quote tokens (`<|"|>` and `<|">`) with a plain `"`. Some templates (Kimi K2,
 * Gemma) spell string delimiters this way; a model that copies them produces otherwise valid JSON.
 * The replacement is textual: valid JSON can never contain these tokens, inside or outside strings.
 * One left-to-right pass; a token formed by a replacement is replaced in a second pass.
 * @internal
 */
export function replaceLeakedQuoteTokens(text: string): string {
  if (!text.includes('<|"')) return text;
  const replaced = text.replace(leakedQuoteToken, '"');
  return replaced.includes('<|"') ? replaced.replace(leakedQuoteToken, '"') : replaced;
}

/**
 * Removes template markers that sit outside JSON string literals. A marker inside a string is data
 * (a tool may legitimately be asked to write `</tool_call>`), so it is kept byte for byte.
 * @internal
 */
export function removeTemplateMarkers(text: string): string {
  if (!text.includes('<')) return text;
  const parts: string[] = [];
  let copyFrom = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 34) {
      index++;
      while (index < length) {
        const inner = text.charCodeAt(index);
        if (inner === 34) break;
        index += inner === 92 ? 2 : 1;
      }
      index++;
      continue;
    }
    if (code === 60) {
      const markerLength = templateMarkerLength(text, index);
      if (markerLength > 0) {
        parts.push(text.slice(copyFrom, index));
        index += markerLength;
        copyFrom = index;
        continue;
      }
    }
    index++;
  }
  if (copyFrom === 0) return text;
  parts.push(text.slice(copyFrom));
  return parts.join('');
}
