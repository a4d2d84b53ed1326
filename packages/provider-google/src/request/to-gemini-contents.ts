import {
  type AssistantMessage,
  type FilePart,
  type ImagePart,
  InvalidInputError,
  type LanguageModelV1CallWarning,
  type Message,
  type TextPart,
  type ToolMessage,
} from '@tiny/llm';
import { asRecord, asString, replayArguments } from '@tiny/provider-utils';
import { callRefOf, decodeReplayParts, type WirePart } from './replay-parts.js';

/** One `contents` entry as sent. @internal */
export interface WireContent {
  role: 'user' | 'model';
  parts: WirePart[];
}

/** The `systemInstruction` and `contents` of a request. @internal */
export interface WirePrompt {
  readonly systemInstruction: WirePart[];
  readonly contents: WireContent[];
}

/** What a call's `extraContent` keeps for Gemini: the part's signature and the API's own call id. @internal */
export interface GoogleCallExtra {
  readonly thoughtSignature?: string | undefined;
  readonly id?: string | undefined;
}

/** The Gemini facts kept on a call (`extraContent.google`). @internal */
export function googleExtraOf(extraContent: unknown): GoogleCallExtra {
  const google = asRecord(asRecord(extraContent)?.google);
  return { thoughtSignature: asString(google?.thoughtSignature), id: asString(google?.id) };
}

function mediaPart(part: ImagePart | FilePart): WirePart {
  return part.data.kind === 'url'
    ? { fileData: { mimeType: part.mediaType, fileUri: part.data.value } }
    : { inlineData: { mimeType: part.mediaType, data: part.data.value } };
}

function userParts(content: string | readonly (TextPart | ImagePart | FilePart)[]): WirePart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.flatMap((part) =>
    part.type === 'text' ? (part.text === '' ? [] : [{ text: part.text }]) : [mediaPart(part)],
  );
}

function modelParts(message: AssistantMessage, warnings: LanguageModelV1CallWarning[]): WirePart[] {
  const parts: WirePart[] = [];
  const content =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content } as const] : message.content;
  const text = content
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
  let textReplayed = false;
  // each call's part, sent where the recorded parts placed it, else after everything else
  const callParts = (message.toolCalls ?? []).map((call) => {
    const extra = googleExtraOf(call.extraContent);
    const part: WirePart = {
      functionCall: {
        ...(extra.id === undefined ? {} : { id: extra.id }),
        name: call.name,
        args: replayArguments(call.arguments),
      },
      ...(extra.thoughtSignature === undefined ? {} : { thoughtSignature: extra.thoughtSignature }),
    };
    return { id: call.id, part, sent: false };
  });
  for (const part of content) {
    if (part.type !== 'reasoning' || part.signature === undefined) continue;
    const replay = decodeReplayParts(part.signature);
    if (replay === undefined) {
      warnings.push({
        type: 'other',
        message: 'an assistant reasoning part whose signature is not a Gemini one was left out of the request',
      });
      continue;
    }
    const replayText = replay
      .filter((wire) => wire.thought !== true && typeof wire.text === 'string')
      .map((wire) => wire.text as string)
      .join('');
    if (!textReplayed && replayText === text) {
      // the recorded parts hold this turn's text: send them exactly, in order, each signature on
      // its part, each call in its place (a place naming no call of this turn is left out)
      for (const wire of replay) {
        const id = callRefOf(wire);
        if (id === undefined) parts.push(wire);
        else {
          const call = callParts.find((entry) => entry.id === id && !entry.sent);
          if (call !== undefined) {
            call.sent = true;
            parts.push(call.part);
          }
        }
      }
      textReplayed = true;
    } else {
      parts.push(
        ...replay.filter(
          (wire) =>
            wire.thought === true ||
            wire.executableCode !== undefined ||
            wire.codeExecutionResult !== undefined ||
            wire.inlineData !== undefined,
        ),
      );
      if (replay.some((wire) => wire.thought !== true && typeof wire.thoughtSignature === 'string'))
        warnings.push({
          type: 'other',
          message:
            "the assistant text differs from the recorded parts, so their thought signatures on text parts were not sent (Gemini may reason less well on this turn's replay)",
        });
    }
  }
  for (const part of content) {
    if (part.type === 'text') {
      if (!textReplayed && part.text !== '') parts.push({ text: part.text });
    } else if (part.type === 'image' || part.type === 'file') {
      parts.push(mediaPart(part));
    }
  }
  for (const call of callParts) if (!call.sent) parts.push(call.part);
  return parts;
}

function functionResponse(
  message: ToolMessage,
  calls: ReadonlyMap<string, { name: string; id: string | undefined }>,
): WirePart[] {
  const call = calls.get(message.toolCallId);
  const name = call?.name ?? message.toolName;
  if (name === undefined || name === '')
    throw new InvalidInputError({
      entryPoint: 'google',
      reason: `the tool result for call "${message.toolCallId}" names no function and answers no call of an earlier assistant turn: Gemini's functionResponse must carry the function's name`,
    });
  const parts =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content } as const] : message.content;
  const output = parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const media = parts.filter((part): part is ImagePart | FilePart => part.type !== 'text').map(mediaPart);
  return [
    {
      functionResponse: {
        ...(call?.id === undefined ? {} : { id: call.id }),
        name,
        response: message.isError === true ? { error: output } : { output },
      },
    },
    ...media,
  ];
}

/**
 * Translates the conversation: system messages become `systemInstruction` parts (in order,
 * wherever they stand); user turns and tool results `user` contents, assistant turns `model`
 * contents, consecutive ones of a role merged. An assistant turn sends its recorded parts first
 * (thought parts and signed text, exactly as received; see `encodeReplayParts`), then its text
 * and media when not already among them, then one `functionCall` per call with the API's call id
 * and the `thoughtSignature` its part carried. A tool result becomes a `functionResponse` with the
 * function's name (taken from the call it answers) and the call's id when the API gave one;
 * `response` holds `{output}`, or `{error}` for a failed call.
 *
 * @throws {InvalidInputError} for a tool result whose function name cannot be known.
 * @internal
 */
export function toGeminiContents(messages: readonly Message[], warnings: LanguageModelV1CallWarning[]): WirePrompt {
  const systemInstruction: WirePart[] = [];
  const contents: WireContent[] = [];
  const calls = new Map<string, { name: string; id: string | undefined }>();
  const append = (role: 'user' | 'model', parts: WirePart[]): void => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts: [...parts] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        const text =
          typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('\n');
        if (text !== '') systemInstruction.push({ text });
        break;
      }
      case 'user':
        append('user', userParts(message.content));
        break;
      case 'assistant':
        for (const call of message.toolCalls ?? [])
          calls.set(call.id, { name: call.name, id: googleExtraOf(call.extraContent).id });
        append('model', modelParts(message, warnings));
        break;
      case 'tool':
        append('user', functionResponse(message, calls));
        break;
    }
  }
  return { systemInstruction, contents };
}
