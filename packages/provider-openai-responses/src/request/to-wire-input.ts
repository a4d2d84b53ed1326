import type { FilePart, ImagePart, LanguageModelV1CallWarning, Message, TextPart } from '@tiny/llm';
import { decodeReplayItems } from './replay-items.js';

/** One `input` item as sent. @internal */
export type WireItem = Record<string, unknown>;

function mediaPart(part: ImagePart | FilePart): WireItem {
  if (part.type === 'image' || part.mediaType.startsWith('image/')) {
    const url = part.data.kind === 'url' ? part.data.value : `data:${part.mediaType};base64,${part.data.value}`;
    return { type: 'input_image', image_url: url };
  }
  if (part.data.kind === 'url') return { type: 'input_file', file_url: part.data.value };
  const name = part.type === 'file' && part.name !== undefined ? part.name : 'file';
  return { type: 'input_file', filename: name, file_data: `data:${part.mediaType};base64,${part.data.value}` };
}

function userContent(content: string | readonly (TextPart | ImagePart | FilePart)[]): WireItem[] {
  if (typeof content === 'string') return [{ type: 'input_text', text: content }];
  return content.map((part) => (part.type === 'text' ? { type: 'input_text', text: part.text } : mediaPart(part)));
}

function assistantItems(
  message: Extract<Message, { role: 'assistant' }>,
  warnings: LanguageModelV1CallWarning[],
): WireItem[] {
  const items: WireItem[] = [];
  const parts =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content } as const] : message.content;
  let text = '';
  for (const part of parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') {
      const replay = part.signature === undefined ? undefined : decodeReplayItems(part.signature);
      if (replay === undefined) {
        warnings.push({
          type: 'other',
          message:
            "an assistant reasoning part without this adapter's replay envelope was left out of the request (the Responses API replays reasoning only as the items it sent)",
        });
      } else {
        items.push(...replay.map((item) => ({ ...item })));
      }
    } else {
      warnings.push({ type: 'other', message: `an assistant ${part.type} part was left out of the request` });
    }
  }
  if (message.reasoningContent !== undefined && message.reasoningContent !== '') {
    warnings.push({
      type: 'other',
      message: 'reasoningContent without replay items was left out of the request',
    });
  }
  if (text !== '') items.push({ role: 'assistant', content: text });
  for (const call of message.toolCalls ?? []) {
    items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
  }
  return items;
}

function toolOutput(message: Extract<Message, { role: 'tool' }>, warnings: LanguageModelV1CallWarning[]): WireItem {
  let output: string;
  if (typeof message.content === 'string') output = message.content;
  else {
    const texts: string[] = [];
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else warnings.push({ type: 'other', message: `a tool result ${part.type} part was left out (text only)` });
    }
    output = texts.join('\n');
  }
  return { type: 'function_call_output', call_id: message.toolCallId, output };
}

/**
 * Translates the conversation into Responses API `input` items, in order: system messages as
 * `system` messages where they stand; user turns with `input_text`, `input_image` and
 * `input_file` parts; an assistant turn as its replay items first (the reasoning and hosted tool
 * items of its reasoning part's envelope, unchanged), then its text, then one `function_call` per
 * call with the argument text as recorded; tool results as `function_call_output` by `call_id`.
 * A reasoning part without this adapter's envelope cannot be replayed and is left out with a warning.
 * @internal
 */
export function toWireInput(messages: readonly Message[], warnings: LanguageModelV1CallWarning[]): WireItem[] {
  const input: WireItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        const text =
          typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('\n');
        if (text !== '') input.push({ role: 'system', content: text });
        break;
      }
      case 'user':
        input.push({ role: 'user', content: userContent(message.content) });
        break;
      case 'assistant':
        input.push(...assistantItems(message, warnings));
        break;
      case 'tool':
        input.push(toolOutput(message, warnings));
        break;
    }
  }
  return input;
}
