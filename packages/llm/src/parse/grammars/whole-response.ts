import { parseJsonStrict } from '../extract-json-values.js';
import { joinNarrative } from '../join-narrative.js';
import { isRecord } from '../own-properties.js';
import { readStatedArguments, statedCall } from '../read-stated-arguments.js';
import type { ToolKnowledge } from '../scan-context.js';
import { scanJsonValue } from '../scan-json-value.js';
import type { RawCall } from '../scan-types.js';

/** @internal Calls read from a whole response, and the narrative left. */
export interface WholeResponseCalls {
  readonly text: string;
  readonly calls: RawCall[];
  /** A call body was cut off (its JSON never closes): that call is invalid and reported partial. */
  readonly unterminated?: boolean;
  /** Where the calls' bodies stand in the text, `[start, end)`: markup there is argument content. */
  readonly bodies: ReadonlyArray<readonly [number, number]>;
}

/** Where nothing is a call: reasoning, example fences, inline code (see `protected-regions.ts`). */
export interface WholeResponseRegions {
  endAt(position: number): number;
  startAt(position: number): number;
}

const NO_REGIONS: WholeResponseRegions = { endAt: () => -1, startAt: () => -1 };

/**
 * @internal Functionary v3.2 (source `tagged_json`), after its template and llama.cpp's reader: the
 * prompt ends with `>>>`, so the response is `RECIPIENT\nBODY` segments, the first one's `>>>`
 * often absent and later ones after content (`…What's up?>>>fn\n{…}`). `all` is the content
 * channel (its body is narrative); any other recipient is a call whose body is its JSON arguments,
 * except that raw code sent to an offered `python` tool becomes that tool's `code` argument. A
 * segment boundary is a `>>>` (outside a fence) followed by `all` or an offered tool's name and a
 * newline; other `>>>` (a REPL prompt, an unknown name) stay content. Text before the first
 * boundary is content, less a leading `all\n`, unless its first line is an offered tool and the
 * rest is a JSON object (the first call, its `>>>` consumed by the prompt). `undefined` when no
 * call was read, except for a response that starts with a boundary (`>>>all` alone is plain content).
 */
export function readFunctionaryRecipients(
  text: string,
  knowledge: ToolKnowledge,
  regions: WholeResponseRegions = NO_REGIONS,
): WholeResponseCalls | undefined {
  if (knowledge.names.length === 0) return undefined;
  const body = text.trim();
  const lead = text.length - text.trimStart().length;
  const boundaries: Array<{ readonly at: number; readonly recipient: string; readonly bodyStart: number }> = [];
  let fenceOpen = false;
  // The next fence marker not yet passed (searched once per marker, so the walk stays linear).
  let tick = body.indexOf('```');
  for (let at = body.indexOf('>>>'); at >= 0; at = body.indexOf('>>>', at + 3)) {
    while (tick >= 0 && tick < at) {
      fenceOpen = !fenceOpen;
      tick = body.indexOf('```', tick + 3);
    }
    // A recipient written in reasoning, an example fence or inline code is text.
    if (fenceOpen || regions.endAt(lead + at) >= 0) continue;
    const lineEnd = body.indexOf('\n', at);
    const recipient = body.slice(at + 3, lineEnd < 0 ? body.length : lineEnd).trim();
    if (recipient !== 'all' && !knowledge.isKnown(recipient)) continue;
    boundaries.push({ at, recipient, bodyStart: lineEnd < 0 ? body.length : lineEnd + 1 });
  }
  if (boundaries.length === 0 && body.indexOf('\n') < 0) return undefined;
  const calls: RawCall[] = [];
  const narrative: string[] = [];
  const bodies: Array<readonly [number, number]> = [];
  const head = body.slice(0, boundaries[0]?.at ?? body.length);
  const headLine = head.indexOf('\n');
  const headRecipient = headLine < 0 ? '' : head.slice(0, headLine).trim();
  if (headRecipient === 'all') narrative.push(head.slice(headLine + 1));
  else if (
    headRecipient !== '' &&
    regions.endAt(lead) < 0 &&
    knowledge.isKnown(headRecipient) &&
    isCallBody(headRecipient, head.slice(headLine + 1))
  ) {
    calls.push(recipientCall(headRecipient, head.slice(headLine + 1)));
    bodies.push([lead + headLine + 1, lead + head.length]);
  } else narrative.push(head);
  boundaries.forEach((boundary, index) => {
    const content = body.slice(boundary.bodyStart, boundaries[index + 1]?.at ?? body.length);
    if (boundary.recipient === 'all') narrative.push(content);
    else {
      calls.push(recipientCall(boundary.recipient, content));
      bodies.push([lead + boundary.bodyStart, lead + boundary.bodyStart + content.length]);
    }
  });
  // Without a call, the reading applies only when the reply opens on a recipient (`>>>all`): a
  // `>>> quote` is prose, where other readings (a call's JSON in prose) still apply.
  if (calls.length === 0 && boundaries[0]?.at !== 0) return undefined;
  const unterminated = calls.some((call) => call.invalid?.reason === CUT_OFF || call.invalid?.reason === FENCE_CUT_OFF);
  const read = { text: joinNarrative(narrative), calls, bodies };
  return unterminated ? { ...read, unterminated } : read;
}

const CUT_OFF = 'the arguments JSON was cut off before it closed';
const FENCE_CUT_OFF = 'the arguments code fence was cut off before it closed';

/** Whether a first segment with no `>>>` is a call: a JSON object, or code for an offered `python`. */
function isCallBody(name: string, content: string): boolean {
  const parsed = parseJsonStrict(content.trim());
  return (parsed !== undefined && isRecord(parsed.value)) || (name === 'python' && content.trim() !== '');
}

function recipientCall(name: string, content: string): RawCall {
  const trimmed = content.trim();
  if (trimmed === '') return { name, arguments: {}, source: 'tagged_json' };
  // A body that opens a code fence and never closes it was cut off inside the fence: a started
  // block owns the text to its end (no later `>>>` is a boundary, see above), so the call is
  // invalid and partial, even when the JSON inside looks whole (the closer never came).
  if (trimmed.startsWith('```') && trimmed.indexOf('```', 3) < 0)
    return {
      name,
      arguments: {},
      invalid: { raw: trimmed, reason: FENCE_CUT_OFF, partial: true },
      source: 'tagged_json',
    };
  const parsed = parseJsonStrict(trimmed);
  if (name === 'python' && (parsed === undefined || !isRecord(parsed.value))) {
    return { name, arguments: { code: content }, source: 'tagged_json' };
  }
  // A body whose JSON never closes was cut off: an invalid call, never repaired into a runnable one.
  if (parsed === undefined && (trimmed.startsWith('{') || trimmed.startsWith('['))) {
    if (scanJsonValue(trimmed, 0).kind === 'incomplete')
      return { name, arguments: {}, invalid: { raw: trimmed, reason: CUT_OFF, partial: true }, source: 'tagged_json' };
  }
  return statedCall(name, readStatedArguments(parsed === undefined ? trimmed : parsed.value), 'tagged_json');
}

const ACTION = /(^|\n)[ \t]*(?:Action:\s*)?```(?:json)?[ \t]*\r?\n/g;

/**
 * @internal Cohere Command R+ tool use (source `command_action`), after its template: `Action:` then
 * a ```` ```json ```` fence holding a JSON list of `{"tool_name": …, "parameters": {…}}` entries
 * (the `Action:` line may stand on its own line, or be missing when the fence is the whole
 * response: a fence after prose without it is an example). The first fence whose entries name
 * an offered tool is read, and then every entry with a `tool_name` is a call (one naming no offered
 * tool, `directly_answer` included unless offered, is refused at admission as unknown). The text around the fence is the narrative.
 * `undefined` when there is no such fence.
 */
export function readCommandActionFence(
  text: string,
  knowledge: ToolKnowledge,
  regions: WholeResponseRegions = NO_REGIONS,
): WholeResponseCalls | undefined {
  // Every entry needs `tool_name`: one native search rules most texts out before the regex.
  if (knowledge.names.length === 0 || text.indexOf('tool_name') < 0) return undefined;
  ACTION.lastIndex = 0;
  for (let match = ACTION.exec(text); match !== null; match = ACTION.exec(text)) {
    const bodyStart = match.index + match[0].length;
    const close = text.indexOf('```', bodyStart);
    const bodyEnd = close < 0 ? text.length : close;
    // Without `Action:`, only a fence that is the whole response (an example in prose stays text).
    const whole = text.slice(0, match.index).trim() === '' && (close < 0 || text.slice(close + 3).trim() === '');
    // An action written in reasoning, an example fence or inline code is text (the fence the
    // action opens may be protected itself: only a region begun before it counts).
    const at = match.index + match[0].search(/\S/);
    const region = regions.startAt(at);
    const inside = regions.endAt(at) >= 0 && region < at;
    const stated = !inside && (match[0].includes('Action:') || whole);
    const calls = stated ? actionEntries(text.slice(bodyStart, bodyEnd), knowledge) : [];
    if (calls.length === 0) {
      if (close < 0) return undefined;
      ACTION.lastIndex = close + 3;
      continue;
    }
    const after = close < 0 ? '' : text.slice(close + 3);
    return { text: joinNarrative([text.slice(0, match.index), after]), calls, bodies: [[bodyStart, bodyEnd]] };
  }
  return undefined;
}

function actionEntries(body: string, knowledge: ToolKnowledge): RawCall[] {
  const parsed = parseJsonStrict(body.trim());
  if (parsed === undefined) return [];
  const entries = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  // The fence is an action list when one entry names an offered tool; then every named entry
  // reaches admission (an unknown tool gets its error row there, never a silent skip).
  const named = entries.filter((entry) => isRecord(entry) && typeof entry.tool_name === 'string');
  if (!named.some((entry) => knowledge.isKnown(String((entry as Record<string, unknown>).tool_name)))) return [];
  const calls: RawCall[] = [];
  for (const entry of named) {
    if (!isRecord(entry) || typeof entry.tool_name !== 'string') continue;
    const stated = Object.hasOwn(entry, 'parameters') ? readStatedArguments(entry.parameters) : { arguments: {} };
    calls.push(statedCall(entry.tool_name, stated, 'command_action'));
  }
  return calls;
}
