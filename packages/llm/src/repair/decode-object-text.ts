import { isPlainObject } from './is-plain-object.js';
import { parseJson } from './parse-json.js';
import { recoverArgumentsObject } from './recover-arguments-object.js';
import { stripCodeFence } from './strip-code-fence.js';

/**
 * Decodes text that should hold a JSON object: strict parse after removing one code fence, one
 * level of double encoding (`"{\"a\":1}"`), then the conservative object ladder (an empty object
 * only from text that writes one: `recoverArgumentsObject`).
 * Returns `undefined` when no object comes out.
 * @internal
 */
export function decodeObjectText(text: string, nested = false): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const body = stripCodeFence(trimmed);
  const value = parseJson(body);
  if (isPlainObject(value)) return value;
  if (typeof value === 'string' && !nested) return decodeObjectText(value, true);
  return value === undefined ? recoverArgumentsObject(trimmed) : undefined;
}
