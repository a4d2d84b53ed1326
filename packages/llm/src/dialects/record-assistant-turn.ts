import { nestsDeeperThan } from '../json/nests-deeper-than.js';
import type { AssistantMessage, AssistantToolCall } from '../messages/message.js';
import type { DialectCall, DialectParse, DialectResponse } from './tool-dialect.js';

/** How deep recorded arguments may nest before they are not serialised (the harness admits 64 levels). */
const MAX_RECORDED_DEPTH = 64;

/**
 * The argument text to record: the provider's raw text, the raw string of an invalid call, else
 * JSON. Arguments nesting deeper than 64 levels (or that cannot be serialised) are recorded as a
 * placeholder string, never walked recursively: a hostile server's value cannot overflow the stack.
 */
function recordedArguments(call: DialectCall): string {
  if (call.rawArguments !== undefined) return call.rawArguments;
  if (call.invalid !== undefined && typeof call.arguments === 'string') return call.arguments;
  const placeholder = `<arguments nested deeper than ${MAX_RECORDED_DEPTH} levels>`;
  if (nestsDeeperThan(call.arguments, MAX_RECORDED_DEPTH)) return placeholder;
  try {
    return JSON.stringify(call.arguments ?? {});
  } catch {
    return '<arguments that cannot be serialised>';
  }
}

/** A call as the assistant message records it: its id, name and argument text, then what applies. */
function recordedCall(call: DialectCall & { readonly id: string }): AssistantToolCall {
  const recorded: AssistantToolCall = { id: call.id, name: call.name, arguments: recordedArguments(call) };
  const text = call.source === 'native' ? recorded : { ...recorded, grammar: call.source };
  // A cut-off call says so on the record itself (see `AssistantToolCall.partial`).
  const written = call.partial === true ? { ...text, partial: true as const } : text;
  return call.extraContent === undefined ? written : { ...written, extraContent: call.extraContent };
}

/**
 * The assistant message to record for a response, so the next request replays what the model
 * actually wrote: `parsed.replayText` as the content (for text dialects the raw text with its call
 * tags, not the narrative), each call with the id the harness settled on, its argument text
 * (the provider's raw text when known, never re-serialised), the grammar of a call written as text,
 * `partial` for a call cut off before its block closed, and its `extraContent`; reasoning as
 * `reasoningContent`, or as a leading reasoning part when it carries a signature.
 */
export function recordAssistantTurn(
  response: DialectResponse,
  parsed: Pick<DialectParse, 'replayText'>,
  calls: readonly (DialectCall & { readonly id: string })[],
): AssistantMessage {
  // Literals field by field (an object spread into a literal is copied by a generic builtin, per turn).
  const toolCalls: AssistantToolCall[] | undefined = calls.length === 0 ? undefined : new Array(calls.length);
  for (let index = 0; index < calls.length; index += 1) {
    (toolCalls as AssistantToolCall[])[index] = recordedCall(calls[index] as DialectCall & { readonly id: string });
  }
  if (response.reasoning === undefined) {
    return toolCalls === undefined
      ? { role: 'assistant', content: parsed.replayText }
      : { role: 'assistant', content: parsed.replayText, toolCalls };
  }
  const withCalls = toolCalls === undefined ? {} : { toolCalls };
  if (response.reasoningSignature === undefined) {
    return { role: 'assistant', content: parsed.replayText, reasoningContent: response.reasoning, ...withCalls };
  }
  const reasoning = { type: 'reasoning', text: response.reasoning, signature: response.reasoningSignature } as const;
  const text = parsed.replayText === '' ? [] : [{ type: 'text', text: parsed.replayText } as const];
  return { role: 'assistant', content: [reasoning, ...text], ...withCalls };
}
