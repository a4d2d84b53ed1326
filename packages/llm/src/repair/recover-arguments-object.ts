import { recoverRelaxedObject } from './recover-relaxed-object.js';

/** An empty object as written: one pair of braces (or a doubled pair) around nothing but spaces and commas. */
const WRITTEN_EMPTY = /^(?:\{[\s,]*\}|\{\{[\s,]*\}\})$/;

/**
 * {@link recoverRelaxedObject} for text that states a call's arguments (or an answer object): an
 * empty object counts only when the text writes one (`{}`, `{,}`, `{{}}`). From `{`, `{{` or `{ {`
 * (cut or garbled before any key) it would be arguments made up, the defaulting the fail-closed
 * rule forbids, so those are refused (`undefined`), like any text the ladder cannot read.
 * @internal
 */
export function recoverArgumentsObject(text: string): Record<string, unknown> | undefined {
  const recovered = recoverRelaxedObject(text);
  if (recovered === undefined || Object.keys(recovered).length > 0) return recovered;
  return WRITTEN_EMPTY.test(text.trim()) ? recovered : undefined;
}
