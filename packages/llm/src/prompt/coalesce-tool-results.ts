import { foldToolResults } from '../envelope/fold-tool-results.js';
import { toolResultEntryFrom } from '../envelope/tool-result-entry-from.js';
import {
  type AssistantMessage,
  type AssistantToolCall,
  type Message,
  messageText,
  type ToolMessage,
} from '../messages/message.js';
import { parseToolCalls } from '../parse/parse-tool-calls.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderJsonCall } from './render-json-call.js';

/** Options of {@link coalesceToolResults}. */
export interface CoalesceToolResultsOptions {
  /** Writes one call as text; defaults to `renderJsonCall`. Arguments arrive decoded (see below). */
  readonly renderCall?: ((name: string, args: unknown) => string) | undefined;
  /** Offered tools, used only to recognise calls already written in the assistant text. */
  readonly tools?: readonly ToolSchema[] | undefined;
}

/** The arguments to show for a recorded call: `{}` for a blank string, the decoded JSON, else the raw string. */
function shownArguments(call: AssistantToolCall): unknown {
  if (call.arguments.trim() === '') return {};
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return call.arguments;
  }
}

/** True when the text already holds the calls (the raw tagged text a text dialect records). */
function textCarriesCalls(text: string, count: number, tools: readonly ToolSchema[] | undefined): boolean {
  if (text.trim() === '') return false;
  return parseToolCalls(text, tools === undefined ? {} : { tools }).calls.length >= count;
}

function withCallsAsText(message: AssistantMessage, options: CoalesceToolResultsOptions): AssistantMessage {
  const calls = message.toolCalls ?? [];
  const { toolCalls: _dropped, ...rest } = message;
  if (calls.length === 0) return rest;
  if (textCarriesCalls(messageText(message), calls.length, options.tools)) return rest;
  const render = options.renderCall ?? renderJsonCall;
  const callText = calls.map((call) => render(call.name, shownArguments(call))).join('\n');
  if (typeof message.content === 'string') {
    return { ...rest, content: message.content === '' ? callText : `${message.content}\n${callText}` };
  }
  return { ...rest, content: [...message.content, { type: 'text', text: callText }] };
}

/**
 * Reshapes a history for a model that reads tools from its prompt (no tool role, no structured
 * `toolCalls`), as its chat template needs.
 *
 * - An assistant turn with `toolCalls` loses the field; its calls are appended to its text, one
 *   per line after a line break, written by `renderCall` (default `<tool_call>{json}</tool_call>`)
 *   with the arguments decoded when they are JSON (`{}` for a blank string, else the raw
 *   string). When the text already holds at least as many calls as were recorded (a text dialect
 *   records the raw model text with its tags), the text is kept byte for byte instead.
 * - Each run of consecutive tool messages becomes user turns via `foldToolResults`: one
 *   `[Tool results]` turn per batch, a `name` attribute when the tool name is known and the call
 *   id otherwise, and a trusted-verbatim result in its own turn. Image and file parts follow.
 * - Everything else, including `reasoningContent`, is passed through as the same objects.
 *
 * Run `pairToolCycles` first so no result is orphaned. Returns a new array.
 */
export function coalesceToolResults(messages: readonly Message[], options: CoalesceToolResultsOptions = {}): Message[] {
  const output: Message[] = [];
  let results: ToolMessage[] = [];
  const flush = (): void => {
    if (results.length > 0) output.push(...foldToolResults(results.map(toolResultEntryFrom)));
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(message);
      continue;
    }
    flush();
    const hasCalls = message.role === 'assistant' && message.toolCalls !== undefined;
    output.push(hasCalls ? withCallsAsText(message, options) : message);
  }
  flush();
  return output;
}
