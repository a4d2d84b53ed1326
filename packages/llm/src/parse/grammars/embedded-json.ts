import { extractJsonValues } from '../extract-json-values.js';
import { joinNarrative } from '../join-narrative.js';
import { isRecord } from '../own-properties.js';
import { readCalls } from '../read-call-object.js';
import type { ToolKnowledge } from '../scan-context.js';
import type { RawCall } from '../scan-types.js';

/**
 * @internal Llama 3.x JSON calls written inside prose (source `bare_json`): `Here is the result:
 * {"name": "search", "parameters": {"q": "x"}} Would you like more?`, several separated by `;`
 * (Llama 3.1/3.2/3.3 JSON tool prompts, vLLM's `llama3_json` parser). Whole-response only, and
 * tried only when no other grammar found (or failed to decode) a block; JSON inside a protected
 * region (a fenced example, reasoning) is never read: `isProtected` answers for a position of `text`
 * itself (a narrative is not the text its regions were found on; map its positions back first). Because this reads free prose, an object counts
 * only when its `name` is exactly an offered tool and it states `parameters` or `arguments`; any
 * other JSON in the text (a quoted argument object, an answer) stays text. The removed objects and
 * the `;` between them leave the narrative; returns `undefined` when nothing was read.
 */
export function stripEmbeddedJsonCalls(
  text: string,
  knowledge: ToolKnowledge,
  isProtected: (position: number) => boolean,
): { text: string; calls: RawCall[] } | undefined {
  if (knowledge.names.length === 0 || text.indexOf('"name"') < 0) return undefined;
  const calls: RawCall[] = [];
  const removed: Array<readonly [number, number]> = [];
  for (const span of extractJsonValues(text)) {
    if (isProtected(span.start)) continue;
    const value = span.value;
    if (!isRecord(value) || typeof value.name !== 'string' || !knowledge.isKnown(value.name)) continue;
    if (!Object.hasOwn(value, 'parameters') && !Object.hasOwn(value, 'arguments')) continue;
    const read = readCalls(value, true, knowledge.isKnown, 'bare_json');
    if (read.length === 0) continue;
    calls.push(...read);
    removed.push([span.start, span.end]);
  }
  if (calls.length === 0) return undefined;
  const pieces: string[] = [];
  let cursor = 0;
  for (const [start, end] of removed) {
    const gap = text.slice(cursor, start);
    // A `;` (with whitespace) between two calls, or right after one, is the separator: drop it.
    pieces.push(cursor > 0 ? gap.replace(/^\s*;/, '') : gap);
    cursor = end;
  }
  pieces.push(text.slice(cursor).replace(/^\s*;/, ''));
  return { text: joinNarrative(pieces), calls };
}
