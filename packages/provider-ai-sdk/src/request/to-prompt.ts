import {
  type AssistantMessage,
  type FilePart,
  type ImagePart,
  type LanguageModelV1CallWarning,
  type Message,
  recoverToolArguments,
  type TextPart,
  type ToolMessage,
} from '@tiny/llm';

type Part = Record<string, unknown>;

/** The data of a media part: a base64 string as is, a URL as a `URL` (the AI SDK downloads or forwards it). */
function dataOf(part: ImagePart | FilePart): string | URL {
  return part.data.kind === 'url' ? new URL(part.data.value) : part.data.value;
}

function mediaPart(part: ImagePart | FilePart): Part {
  return {
    type: 'file',
    mediaType: part.mediaType,
    data: dataOf(part),
    ...(part.type === 'file' && part.name !== undefined ? { filename: part.name } : {}),
  };
}

function userParts(content: string | readonly (TextPart | ImagePart | FilePart)[]): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : mediaPart(part)));
}

/** A recorded call's input for the AI SDK: the argument text as a JSON object, repaired, or `{}`. */
function inputOf(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // repaired below
  }
  return recoverToolArguments(raw) ?? {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assistantParts(message: AssistantMessage, providerKey: string): Part[] {
  const parts: Part[] = [];
  const content =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content } as const] : message.content;
  if (message.reasoningContent !== undefined && message.reasoningContent !== '') {
    parts.push({ type: 'reasoning', text: message.reasoningContent });
  }
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text !== '') parts.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      const signature =
        part.signature === undefined ? {} : { providerOptions: { [providerKey]: { signature: part.signature } } };
      parts.push({ type: 'reasoning', text: part.text, ...signature });
    } else {
      parts.push(mediaPart(part));
    }
  }
  for (const call of message.toolCalls ?? []) {
    parts.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: inputOf(call.arguments),
      ...(isRecord(call.extraContent) ? { providerOptions: call.extraContent } : {}),
    });
  }
  return parts;
}

function toolOutput(message: ToolMessage, version: string): Part {
  if (typeof message.content === 'string') {
    return { type: message.isError === true ? 'error-text' : 'text', value: message.content };
  }
  const allText = message.content.every((part) => part.type === 'text');
  if (allText) {
    const value = message.content.map((part) => (part as TextPart).text).join('\n');
    return { type: message.isError === true ? 'error-text' : 'text', value };
  }
  const value = message.content.map((part): Part => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (version === 'v2') return { type: 'media', data: part.data.value, mediaType: part.mediaType };
    if (part.data.kind === 'url')
      return { type: part.type === 'image' ? 'image-url' : 'file-url', url: part.data.value };
    return part.type === 'image'
      ? { type: 'image-data', data: part.data.value, mediaType: part.mediaType }
      : {
          type: 'file-data',
          data: part.data.value,
          mediaType: part.mediaType,
          ...(part.name === undefined ? {} : { filename: part.name }),
        };
  });
  return { type: 'content', value };
}

/**
 * Translates the conversation into an AI SDK prompt: system text; user text and files (base64 as
 * is, URLs as `URL`s); assistant text, reasoning (a signature travels as
 * `providerOptions[<provider>].signature`, the AI SDK's Anthropic convention), files and tool calls
 * (input decoded from the recorded argument text; `extraContent` object as `providerOptions`);
 * consecutive tool results merged into one `tool` message, errors as `error-text`.
 * @internal
 */
export function toPrompt(
  messages: readonly Message[],
  options: { readonly version: string; readonly providerKey: string; readonly warnings: LanguageModelV1CallWarning[] },
): Part[] {
  const prompt: Part[] = [];
  const names = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({
          role: 'system',
          content:
            typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('\n'),
        });
        break;
      case 'user':
        prompt.push({ role: 'user', content: userParts(message.content) });
        break;
      case 'assistant':
        for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
        prompt.push({ role: 'assistant', content: assistantParts(message, options.providerKey) });
        break;
      case 'tool': {
        const toolName = message.toolName ?? names.get(message.toolCallId);
        if (toolName === undefined) {
          options.warnings.push({
            type: 'other',
            message: `the tool result for call ${message.toolCallId} names no tool; sent with an empty tool name`,
          });
        }
        const part = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: toolName ?? '',
          output: toolOutput(message, options.version),
        };
        const last = prompt[prompt.length - 1];
        if (last?.role === 'tool') (last.content as Part[]).push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}
