import type { AssistantMessage, Message, ToolMessage } from '../messages/message.js';

/**
 * The transcript seen as tool cycles: plain `chat` turns, an assistant turn that asked for tools
 * (`assistant_tool_calls`, at least one call) and the run of tool messages that follows it
 * (`tool_results`). Entries hold the original message objects, so nothing is re-serialised:
 * argument strings, `reasoningContent` and each call's `extraContent` replay byte for byte.
 */
export type TranscriptEntry =
  | { readonly kind: 'chat'; readonly message: Exclude<Message, ToolMessage> }
  | { readonly kind: 'assistant_tool_calls'; readonly message: AssistantMessage }
  | { readonly kind: 'tool_results'; readonly messages: readonly ToolMessage[] };

/** Groups messages into transcript entries; consecutive tool messages form one `tool_results` entry. */
export function toTranscriptEntries(messages: readonly Message[]): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  let results: ToolMessage[] = [];
  const closeResults = (): void => {
    if (results.length > 0) entries.push({ kind: 'tool_results', messages: results });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(message);
      continue;
    }
    closeResults();
    if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
      entries.push({ kind: 'assistant_tool_calls', message });
    } else {
      entries.push({ kind: 'chat', message });
    }
  }
  closeResults();
  return entries;
}

/** Flattens entries back into messages, in order. */
export function fromTranscriptEntries(entries: readonly TranscriptEntry[]): Message[] {
  return entries.flatMap((entry): readonly Message[] =>
    entry.kind === 'tool_results' ? entry.messages : [entry.message],
  );
}
