import { parseJsonStrict } from './extract-json-values.js';
import { isRecord } from './own-properties.js';
import type { ToolKnowledge } from './scan-context.js';

/**
 * @internal Whether a closed `{…}` is an object naming an offered tool (any tool when none were
 * offered) with `parameters` or `arguments`, read as the prose reading reads it
 * (`stripEmbeddedJsonCalls`): with `JSON.parse`, escapes decoded; what it rejects is never a call there.
 */
export function looksLikeCall(candidate: string, knowledge: ToolKnowledge): boolean {
  const parsed = parseJsonStrict(candidate);
  if (parsed === undefined) return false;
  const value = parsed.value;
  if (!isRecord(value) || typeof value.name !== 'string') return false;
  const known = knowledge.tools.length === 0 || knowledge.isKnown(value.name);
  return known && (Object.hasOwn(value, 'parameters') || Object.hasOwn(value, 'arguments'));
}
