import { parseJsonStrict } from '../extract-json-values.js';
import { joinNarrative } from '../join-narrative.js';
import { isRecord } from '../own-properties.js';
import { readStatedArguments, statedCall } from '../read-stated-arguments.js';
import type { ToolKnowledge } from '../scan-context.js';
import type { RawCall } from '../scan-types.js';

/** @internal Calls read from a whole response, and the narrative left. */
export interface WholeResponseCalls {
  readonly text: string;
  readonly calls: RawCall[];
}

/**
 * @internal Functionary v3.2 (source `tagged_json`): the response is a run of `>>>RECIPIENT\nBODY`
 * segments. `all` is the content channel (its body is narrative); any other recipient is a call
 * whose body is its JSON arguments, except that a body of raw code sent to an offered `python` tool
 * becomes that tool's `code` argument. Read only when the response starts with `>>>` and every
 * recipient is `all` or an offered tool (`>>>all` alone is plain content); otherwise `undefined`.
 */
export function readFunctionaryRecipients(text: string, knowledge: ToolKnowledge): WholeResponseCalls | undefined {
  const body = text.trim();
  if (!body.startsWith('>>>') || knowledge.names.length === 0) return undefined;
  const calls: RawCall[] = [];
  const narrative: string[] = [];
  let position = 0;
  while (position < body.length) {
    const headerEnd = body.indexOf('\n', position);
    const recipient = body.slice(position + 3, headerEnd < 0 ? body.length : headerEnd).trim();
    const next = headerEnd < 0 ? -1 : body.indexOf('\n>>>', headerEnd);
    const segmentEnd = next < 0 ? body.length : next;
    const content = headerEnd < 0 ? '' : body.slice(headerEnd + 1, segmentEnd);
    if (recipient === 'all') {
      narrative.push(content);
    } else if (knowledge.isKnown(recipient)) {
      calls.push(recipientCall(recipient, content));
    } else {
      return undefined;
    }
    position = next < 0 ? body.length : next + 1;
  }
  return { text: joinNarrative(narrative), calls };
}

function recipientCall(name: string, content: string): RawCall {
  const trimmed = content.trim();
  if (trimmed === '') return { name, arguments: {}, source: 'tagged_json' };
  const parsed = parseJsonStrict(trimmed);
  if (name === 'python' && (parsed === undefined || !isRecord(parsed.value))) {
    return { name, arguments: { code: content }, source: 'tagged_json' };
  }
  return statedCall(name, readStatedArguments(parsed === undefined ? trimmed : parsed.value), 'tagged_json');
}

const ACTION = /(^|\n)[ \t]*Action:[ \t]*```(?:json)?[ \t]*\n/;

/**
 * @internal Cohere Command R+ tool use (source `command_action`): `Action: ```json` then a JSON list of
 * `{"tool_name": …, "parameters": {…}}` and the closing fence. Entries naming an offered tool are
 * calls (`directly_answer`, Cohere's "no tool" action, is not one unless offered); the text before
 * `Action:` is the narrative. `undefined` when there is no such block or no call in it.
 */
export function readCommandActionFence(text: string, knowledge: ToolKnowledge): WholeResponseCalls | undefined {
  // The fence needs a backtick: one native character search rules most texts out before the regex.
  if (knowledge.names.length === 0 || text.indexOf('`') < 0) return undefined;
  const match = ACTION.exec(text);
  if (match === null) return undefined;
  const bodyStart = match.index + match[0].length;
  const close = text.indexOf('```', bodyStart);
  const bodyEnd = close < 0 ? text.length : close;
  const parsed = parseJsonStrict(text.slice(bodyStart, bodyEnd).trim());
  if (parsed === undefined) return undefined;
  const entries = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const calls: RawCall[] = [];
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.tool_name !== 'string' || !knowledge.isKnown(entry.tool_name)) continue;
    const stated = Object.hasOwn(entry, 'parameters') ? readStatedArguments(entry.parameters) : { arguments: {} };
    calls.push(statedCall(entry.tool_name, stated, 'command_action'));
  }
  if (calls.length === 0) return undefined;
  const after = close < 0 ? '' : text.slice(close + 3);
  return { text: joinNarrative([text.slice(0, match.index), after]), calls };
}
