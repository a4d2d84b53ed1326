import { closerPastJson } from '../closer-past-json.js';
import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import { readCalls } from '../read-call-object.js';
import type { ScanContext } from '../scan-context.js';
import { type Block, countCharacters, type Grammar } from '../scan-types.js';
import { openerPrefixStart } from './opener-prefix.js';

const OPEN = '<|START_ACTION|>';
const CLOSE = '<|END_ACTION|>';

/**
 * Cohere Command R / R7B action entries use `tool_name` and `parameters`; read them as the
 * canonical `name` / `arguments` call objects (the marker makes them calls, not answers).
 */
function toCallObject(entry: unknown): unknown {
  if (!isRecord(entry) || typeof entry.tool_name !== 'string' || 'name' in entry) return entry;
  return { name: entry.tool_name, arguments: entry.parameters ?? {} };
}

/**
 * @internal Command R action blocks (source `command_action`): `<|START_ACTION|>` then a JSON
 * array (or one object) of `{tool_call_id, tool_name, parameters}` entries, then `<|END_ACTION|>`.
 * Nothing decodable between the markers is a malformed block; an opener without its closer stays
 * text (pending in a stream).
 */
export function createCommandActionGrammar(context: ScanContext): Grammar {
  const { text, mode } = context;
  const opens = context.finder(OPEN);
  const closes = context.finder(CLOSE);

  function findNext(from: number): Block | undefined {
    const start = opens.next(from);
    if (start < 0) return undefined;
    const bodyStart = start + OPEN.length;
    // A JSON body is read past `<|END_ACTION|>` written inside its strings.
    const close = closerPastJson(text, bodyStart, (at) => closes.next(at), mode === 'stream');
    if (close < 0) {
      if (mode === 'stream') return { kind: 'pending', start, end: text.length };
      return { kind: 'unterminated', start, end: bodyStart };
    }
    const end = close + CLOSE.length;
    const parsed = parseJsonStrict(text.slice(bodyStart, close).trim());
    const value =
      parsed === undefined
        ? undefined
        : Array.isArray(parsed.value)
          ? parsed.value.map(toCallObject)
          : toCallObject(parsed.value);
    const calls = value === undefined ? [] : readCalls(value, true, context.knowledge.isKnown, 'command_action');
    if (calls.length > 0) return { kind: 'calls', start, end, calls };
    return { kind: 'malformed', start, end, bodyChars: countCharacters(text, bodyStart, close) };
  }

  function holdFrom(floor: number): number {
    return openerPrefixStart(text, floor, [OPEN]);
  }

  return { source: 'command_action', findNext, holdFrom };
}
