import { matchEnvelopeTag } from '../envelope/match-envelope-tag.js';

/**
 * True when `text` holds a `<` that would open or close a `tool_call` or `tool_result` tag; a
 * call body like that cannot be put in tags as is.
 *
 * @internal
 */
export function holdsEnvelopeTag(text: string): boolean {
  for (let index = text.indexOf('<'); index >= 0; index = text.indexOf('<', index + 1)) {
    if (matchEnvelopeTag(text, index + 1) >= 0) return true;
  }
  return false;
}
