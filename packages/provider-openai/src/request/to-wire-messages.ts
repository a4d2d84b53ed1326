import type {
  AssistantMessage,
  AssistantToolCall,
  FilePart,
  ImagePart,
  LanguageModelV1CallWarning,
  Message,
  TextPart,
  ToolMessage,
  UserMessage,
} from '@tiny/llm';
import { replayArguments, tryParseJson } from '@tiny/provider-utils';
import type { ResolvedSettings } from '../model/openai-compatible-settings.js';

type WireMessage = Record<string, unknown>;
type Replay = Pick<ResolvedSettings, 'replayReasoning' | 'replayArguments'>;

function dataUrl(part: ImagePart | FilePart): string {
  return part.data.kind === 'url' ? part.data.value : `data:${part.mediaType};base64,${part.data.value}`;
}

const audioFormats: Readonly<Record<string, string>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

function texts(parts: readonly { readonly type: string }[]): string[] {
  return parts.filter((part): part is TextPart => part.type === 'text').map((part) => part.text);
}

function userContent(message: UserMessage, warnings: LanguageModelV1CallWarning[]): unknown {
  if (typeof message.content === 'string') return message.content;
  if (message.content.every((part) => part.type === 'text')) return texts(message.content).join('\n');
  const parts: unknown[] = [];
  for (const part of message.content) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'image') parts.push({ type: 'image_url', image_url: { url: dataUrl(part) } });
    else if (part.data.kind === 'base64' && audioFormats[part.mediaType] !== undefined) {
      parts.push({ type: 'input_audio', input_audio: { data: part.data.value, format: audioFormats[part.mediaType] } });
    } else if (part.data.kind === 'base64') {
      const file = { file_data: dataUrl(part), ...(part.name === undefined ? {} : { filename: part.name }) };
      parts.push({ type: 'file', file });
    } else {
      warnings.push({ type: 'other', message: `a file given by URL (${part.mediaType}) was left out: send it inline` });
    }
  }
  return parts;
}

/** Argument text that a server which parses replayed arguments accepts: the text itself when it is a JSON object. */
function validJsonArguments(raw: string): string {
  const value = tryParseJson(raw);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return raw;
  return JSON.stringify(replayArguments(raw));
}

function wireToolCall(call: AssistantToolCall, replay: Replay): WireMessage {
  return {
    id: call.id,
    type: 'function',
    function: {
      name: call.name,
      arguments: replay.replayArguments === 'raw' ? call.arguments : validJsonArguments(call.arguments),
    },
    ...(call.extraContent === undefined ? {} : { extra_content: call.extraContent }),
  };
}

function assistantMessage(message: AssistantMessage, replay: Replay, warnings: LanguageModelV1CallWarning[]) {
  const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  if (parts.some((part) => part.type === 'image' || part.type === 'file')) {
    warnings.push({ type: 'other', message: 'images and files in assistant turns are not sent' });
  }
  const text = texts(parts).join('\n');
  const reasoning =
    message.reasoningContent ??
    (parts.some((part) => part.type === 'reasoning')
      ? parts.flatMap((part) => (part.type === 'reasoning' && 'text' in part ? [part.text] : [])).join('')
      : undefined);
  const calls = message.toolCalls ?? [];
  const wire: WireMessage = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (calls.length > 0) wire.tool_calls = calls.map((call) => wireToolCall(call, replay));
  if (reasoning !== undefined && reasoning !== '' && replay.replayReasoning !== false) {
    wire[replay.replayReasoning] = reasoning;
  }
  return wire;
}

function toolMessage(message: ToolMessage, warnings: LanguageModelV1CallWarning[]): WireMessage {
  let content: string;
  if (typeof message.content === 'string') content = message.content;
  else {
    if (message.content.some((part) => part.type !== 'text')) {
      warnings.push({
        type: 'other',
        message: `images and files in the result of tool call ${message.toolCallId} are not sent`,
      });
    }
    content = texts(message.content).join('\n');
  }
  return { role: 'tool', tool_call_id: message.toolCallId, content };
}

/**
 * Maps messages onto OpenAI chat messages. System text parts are joined with a blank line (the
 * prompt-guided tool instructions arrive as a second part); text-only user content becomes a
 * string, richer content a part list (`image_url`, `input_audio` for WAV/MP3, `file` for other
 * inline files; files by URL are left out with a warning). Assistant turns carry their text
 * (`null` when they only call tools), `tool_calls` with the recorded argument text and
 * `extra_content`, and their reasoning in the configured field. Tool results become
 * `role: "tool"` messages with `tool_call_id` and their text.
 * @internal
 */
export function toWireMessages(
  messages: readonly Message[],
  replay: Replay,
  warnings: LanguageModelV1CallWarning[],
): WireMessage[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
        return {
          role: 'system',
          content: typeof message.content === 'string' ? message.content : texts(message.content).join('\n\n'),
        };
      case 'user':
        return { role: 'user', content: userContent(message, warnings) };
      case 'assistant':
        return assistantMessage(message, replay, warnings);
      default:
        return toolMessage(message, warnings);
    }
  });
}
