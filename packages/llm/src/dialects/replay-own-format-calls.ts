import { foldToolResults } from '../envelope/fold-tool-results.js';
import { toolResultEntryFrom } from '../envelope/tool-result-entry-from.js';
import { renderToolCall } from '../formats/tool-format-dispatch.js';
import type { AssistantMessage, AssistantToolCall, Message, ToolMessage } from '../messages/message.js';
import type { CallGrammar } from '../parse/parse-types.js';
import { renderJsonCall } from '../prompt/render-json-call.js';
import type { ToolFormat } from '../spec/tool-format.js';
import { type ToolSchema, toolFormatOf } from '../spec/tool-schema.js';

/** The arguments of a recorded call: `{}` for a blank string, the decoded JSON, else the raw string. */
function recordedValue(call: AssistantToolCall): unknown {
  if (call.arguments.trim() === '') return {};
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return call.arguments;
  }
}

/**
 * One recorded call as the text the model wrote: the tool's own format (`renderToolCall`); the raw
 * text when the arguments were never decoded (an invalid call keeps what the model wrote); the
 * tagged JSON form when the format cannot carry the arguments.
 *
 * @internal
 */
export function ownFormatCallText(call: AssistantToolCall, tool: ToolSchema): string {
  const value = recordedValue(call);
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return renderJsonCall(call.name, value);
  try {
    return renderToolCall({ name: call.name, arguments: value }, tool);
  } catch {
    return renderJsonCall(call.name, value);
  }
}

/**
 * The text of a recorded call written as text, in the syntax it was read with (`call.grammar`), or
 * `undefined` when it is replayed as a native tool call: a structured call (no grammar), and a call
 * in a grammar the native dialect does not write. `xml_element` and `ptype` calls are written in
 * that format (whatever the tool's own format is), `tagged_json` calls as `<tool_call>{json}</tool_call>`.
 */
function writtenCallText(call: AssistantToolCall, tools: ReadonlyMap<string, ToolSchema>): string | undefined {
  const grammar: CallGrammar | undefined = call.grammar;
  if (grammar === 'tagged_json') {
    const value = recordedValue(call);
    return typeof value === 'string' ? value : renderJsonCall(call.name, value);
  }
  if (grammar !== 'xml_element' && grammar !== 'ptype') return undefined;
  const declared = tools.get(call.name) ?? { name: call.name, description: '', parameters: { type: 'object' } };
  const own = toolFormatOf(declared);
  const format: ToolFormat =
    grammar === 'xml_element'
      ? { type: 'xml' }
      : own.type === 'ptype'
        ? own
        : { type: 'ptype', parameters: propertyNames(declared) };
  return ownFormatCallText(call, { ...declared, format });
}

function propertyNames(tool: ToolSchema): string[] {
  const properties = (tool.parameters as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

function appendText(message: AssistantMessage, text: string): AssistantMessage['content'] {
  if (typeof message.content === 'string') return message.content === '' ? text : `${message.content}\n${text}`;
  return [...message.content, { type: 'text', text }];
}

/**
 * Replays a native history in which some calls were written as text (`xml`, `ptype`, tagged
 * JSON): each assistant turn keeps its native `toolCalls` and gets its text calls appended to its
 * content in the syntax the model used, one per line; the results of text calls leave the tool role
 * and come back as `[Tool results]` user turns after the native results of the same batch. The
 * syntax is the grammar recorded on the call (`AssistantToolCall.grammar`), never the tool's format:
 * a structured call to an `xml` tool stays a native tool call, a `<tool_call>{json}` call to it is
 * replayed as that.
 * Run `pairToolCycles` first. Returns a new array; the history is not mutated.
 *
 * @internal
 */
export function replayOwnFormatCalls(history: readonly Message[], tools: readonly ToolSchema[]): Message[] {
  if (!tools.some((tool) => toolFormatOf(tool).type !== 'json')) return [...history];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const output: Message[] = [];
  const textCallIds = new Set<string>();
  let folded: ToolMessage[] = [];
  const flush = (): void => {
    if (folded.length > 0) output.push(...foldToolResults(folded.map(toolResultEntryFrom)));
    folded = [];
  };
  for (const message of history) {
    if (message.role === 'tool') {
      if (textCallIds.has(message.toolCallId)) folded.push(message);
      else output.push(message);
      continue;
    }
    flush();
    if (message.role !== 'assistant' || message.toolCalls === undefined) {
      output.push(message);
      continue;
    }
    const native: AssistantToolCall[] = [];
    const written: string[] = [];
    for (const call of message.toolCalls) {
      const text = writtenCallText(call, byName);
      if (text === undefined) native.push(call);
      else {
        textCallIds.add(call.id);
        written.push(text);
      }
    }
    if (written.length === 0) {
      output.push(message);
      continue;
    }
    const { toolCalls: _calls, ...rest } = message;
    const content = appendText(message, written.join('\n'));
    output.push(native.length === 0 ? { ...rest, content } : { ...rest, content, toolCalls: native });
  }
  flush();
  return output;
}
