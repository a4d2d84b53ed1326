import type { JsonValue } from '@tiny/tools';
import type { CallGrammar } from '../parse/parse-types.js';

/** Plain text. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image, inline (base64) or by URL. */
export interface ImagePart {
  readonly type: 'image';
  readonly mediaType: string;
  readonly data: { readonly kind: 'base64' | 'url'; readonly value: string };
}

/** A file, inline (base64) or by URL. */
export interface FilePart {
  readonly type: 'file';
  readonly mediaType: string;
  readonly name?: string | undefined;
  readonly data: { readonly kind: 'base64' | 'url'; readonly value: string };
}

/** Model reasoning ("thinking") shown in the transcript; `signature` is the provider's opaque proof, kept for replay. */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly signature?: string | undefined;
}

/**
 * A tool call as recorded on an assistant message. `arguments` stays the raw string the model
 * produced so a replay is byte-exact; `extraContent` is provider data that must survive replay
 * (for example Gemini thought signatures).
 */
export interface AssistantToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly extraContent?: JsonValue | undefined;
  /**
   * The grammar a call written as text was read with (`tagged_json`, `xml_element`, `ptype`, …),
   * so a replay writes it again in the syntax the model used. Absent for a structured (native)
   * call, which is replayed as a native tool call.
   */
  readonly grammar?: CallGrammar | undefined;
  /**
   * The call was cut off before its block closed (`ParsedCall.partial`): it is never repaired or
   * run, also when the message is resumed from a saved run (the flag travels with the call, so no
   * list kept beside the transcript can turn it into a runnable call). Absent for a whole call.
   */
  readonly partial?: true | undefined;
}

/** Instructions for the model. */
export interface SystemMessage {
  readonly role: 'system';
  readonly content: string | readonly TextPart[];
}

/** A user turn; may carry images and files. */
export interface UserMessage {
  readonly role: 'user';
  readonly content: string | readonly (TextPart | ImagePart | FilePart)[];
}

/**
 * A model turn. For text tool dialects `content` holds the raw model text *with* its call tags
 * (what the model actually wrote), not the narrative left after parsing.
 */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string | readonly (TextPart | ReasoningPart | ImagePart | FilePart)[];
  readonly toolCalls?: readonly AssistantToolCall[] | undefined;
  /** Reasoning returned in a separate field (`reasoning_content`), kept for replay. */
  readonly reasoningContent?: string | undefined;
}

/** The answer to one tool call. `trustedVerbatim` output is shown to text-dialect models unescaped, in its own turn. */
export interface ToolMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolName?: string | undefined;
  readonly content: string | readonly (TextPart | ImagePart | FilePart)[];
  readonly isError?: boolean | undefined;
  readonly trustedVerbatim?: boolean | undefined;
}

/** One message of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Every part type a message may hold. */
export type MessagePart = TextPart | ImagePart | FilePart | ReasoningPart;

/** The text of a message: a string content as is, or its text parts joined with `\n` (other parts skipped). */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const parts = message.content as readonly MessagePart[];
  return parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}
