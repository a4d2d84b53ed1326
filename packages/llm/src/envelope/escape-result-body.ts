import { matchEnvelopeTag } from './match-envelope-tag.js';

const LESS_THAN = 0x3c;
const AMPERSAND = 0x26;

/**
 * Index just past `(amp;)*lt;` starting at `index` (the character after `&`), with the number of
 * `amp;` repeats, or undefined when the text there is not such a chain.
 */
function readEntityChain(text: string, index: number): { end: number; repeats: number } | undefined {
  let cursor = index;
  let repeats = 0;
  while (text.startsWith('amp;', cursor)) {
    cursor += 4;
    repeats += 1;
  }
  if (!text.startsWith('lt;', cursor)) return undefined;
  return { end: cursor + 3, repeats };
}

/**
 * Escapes a tool output for the body of a `<tool_result>` block so it cannot open or close a
 * `tool_result` or `tool_call` tag. Only a `<` that starts such a tag (optional `/`, the name in
 * any ASCII case, then whitespace, `>`, `/` or the end of the body) becomes `&lt;`; every other
 * byte is kept, so code and markup in results stay readable.
 *
 * To keep the rewrite reversible, text that already reads as an escaped tag (`&lt;tool_call>`,
 * `&amp;lt;tool_call>`, ...) gains one more `amp;`. {@link unescapeResultBody} undoes both.
 * Linear in the length of the body; never throws.
 */
export function escapeResultBody(body: string): string {
  let output = '';
  let copied = 0;
  for (let index = 0; index < body.length; index++) {
    const code = body.charCodeAt(index);
    if (code === LESS_THAN) {
      if (matchEnvelopeTag(body, index + 1) < 0) continue;
      output += `${body.slice(copied, index)}&lt;`;
      copied = index + 1;
    } else if (code === AMPERSAND) {
      const chain = readEntityChain(body, index + 1);
      if (chain === undefined || matchEnvelopeTag(body, chain.end) < 0) continue;
      output += `${body.slice(copied, index + 1)}amp;`;
      copied = index + 1;
    }
  }
  return copied === 0 ? body : output + body.slice(copied);
}

/**
 * Reverses {@link escapeResultBody}: `&lt;` before an envelope tag name becomes `<` again and a
 * longer `&amp;…lt;` chain before one loses one `amp;`. Everything else is returned unchanged.
 */
export function unescapeResultBody(body: string): string {
  let output = '';
  let copied = 0;
  for (let index = 0; index < body.length; index++) {
    if (body.charCodeAt(index) !== AMPERSAND) continue;
    const chain = readEntityChain(body, index + 1);
    if (chain === undefined || matchEnvelopeTag(body, chain.end) < 0) continue;
    if (chain.repeats === 0) {
      output += `${body.slice(copied, index)}<`;
      copied = chain.end;
    } else {
      output += body.slice(copied, index + 1);
      copied = index + 5;
    }
    index = chain.end - 1;
  }
  return copied === 0 ? body : output + body.slice(copied);
}
