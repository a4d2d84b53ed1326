import { recoverRelaxedObject } from '../../repair/recover-relaxed-object.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import { readCalls } from '../read-call-object.js';
import type { ToolKnowledge } from '../scan-context.js';
import type { RawCall } from '../scan-types.js';
import { stripOuterFence } from '../strip-outer-fence.js';

const leadingTokens = ['<|python_tag|>'];
const trailingTokens = ['<|eom_id|>', '<|eot_id|>', '<|im_end|>', '<|end|>', '</s>'];

/**
 * Removes chat-template tokens a raw completion may carry around a whole-response call: Llama 3.x
 * writes `<|python_tag|>{...}<|eom_id|>`. Only at the very start and end; nothing inside is touched.
 */
function stripTurnTokens(text: string): string {
  let start = 0;
  let end = text.length;
  for (const token of leadingTokens) {
    if (text.startsWith(token, start)) start += token.length;
  }
  let trimmed = true;
  while (trimmed) {
    trimmed = false;
    while (end > start && text.charCodeAt(end - 1) <= 32) end -= 1;
    for (const token of trailingTokens) {
      if (end - start >= token.length && text.startsWith(token, end - token.length)) {
        end -= token.length;
        trimmed = true;
      }
    }
  }
  return start === 0 && end === text.length ? text : text.slice(start, end).trim();
}

/**
 * @internal A response that is entirely one JSON object or array (after one surrounding fence is
 * removed), read as calls (source `bare_json`): `{"name":"lookup","arguments":{...}}`, an array of
 * those, or a wire-message echo `{"content":"…","tool_calls":[…]}` whose `content` becomes the
 * narrative. A bare object needs `arguments` or a known tool name (the alias rule); only an
 * object-shaped candidate is repaired, and only as a whole (no trailing noise). `undefined` when the
 * response is not such a value or holds no call.
 */
export function readBareJson(text: string, knowledge: ToolKnowledge): { text: string; calls: RawCall[] } | undefined {
  const candidate = stripOuterFence(stripTurnTokens(text));
  const first = candidate.charCodeAt(0);
  const last = candidate.charCodeAt(candidate.length - 1);
  if (!((first === 123 && last === 125) || (first === 91 && last === 93))) return undefined;
  let value: unknown;
  let repaired = false;
  const strict = parseJsonStrict(candidate);
  if (strict !== undefined) {
    value = strict.value;
  } else if (first === 123) {
    value = recoverRelaxedObject(candidate);
    repaired = true;
    if (value === undefined) return undefined;
  } else {
    return undefined;
  }
  const calls = readCalls(value, false, knowledge.isKnown, 'bare_json');
  if (calls.length === 0) return undefined;
  const content = isRecord(value) && typeof value.content === 'string' ? value.content.trim() : '';
  return { text: content, calls: repaired ? calls.map((call) => ({ ...call, repaired: true })) : calls };
}
