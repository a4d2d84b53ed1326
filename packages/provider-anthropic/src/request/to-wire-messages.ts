import type { FilePart, ImagePart, LanguageModelV1CallWarning, Message, TextPart } from '@tiny/llm';
import { replayArguments } from '@tiny/provider-utils';
import { decodeOpaqueBlocks } from './opaque-blocks.js';

/** A content block as sent. @internal */
export type WireBlock = Record<string, unknown>;

/** One `messages` entry as sent. @internal */
export interface WireMessage {
  role: 'user' | 'assistant';
  content: WireBlock[];
}

/** The `system` blocks and `messages` of a request. @internal */
export interface WirePrompt {
  readonly system: WireBlock[];
  readonly messages: WireMessage[];
  /**
   * The wire position (index into `messages`) of the last message sent before the conversation's
   * latest assistant turn: where the previous request of an agent loop ended. Undefined when no
   * message precedes an assistant turn. Counted on the wire, so a dropped (empty) assistant turn
   * or merged turns do not move it.
   */
  readonly previousEnd?: number | undefined;
}

function source(data: { readonly kind: 'base64' | 'url'; readonly value: string }, mediaType: string): WireBlock {
  return data.kind === 'url'
    ? { type: 'url', url: data.value }
    : { type: 'base64', media_type: mediaType, data: data.value };
}

function mediaBlock(part: ImagePart | FilePart): WireBlock {
  if (part.type === 'image' || part.mediaType.startsWith('image/')) {
    return { type: 'image', source: source(part.data, part.mediaType) };
  }
  const title = part.type === 'file' && part.name !== undefined ? { title: part.name } : {};
  if (part.mediaType.startsWith('text/') && part.data.kind === 'base64') {
    const text = Buffer.from(part.data.value, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...title };
  }
  return { type: 'document', source: source(part.data, part.mediaType), ...title };
}

function userBlocks(content: string | readonly (TextPart | ImagePart | FilePart)[]): WireBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.flatMap((part) =>
    part.type === 'text' ? (part.text === '' ? [] : [{ type: 'text', text: part.text }]) : [mediaBlock(part)],
  );
}

function assistantBlocks(
  message: Extract<Message, { role: 'assistant' }>,
  warnings: LanguageModelV1CallWarning[],
): WireBlock[] {
  const blocks: WireBlock[] = [];
  const parts =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content } as const] : message.content;
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      const replay = part.signature === undefined ? undefined : decodeOpaqueBlocks(part.text, part.signature);
      if (replay === undefined) {
        warnings.push({
          type: 'other',
          message:
            'an assistant reasoning part without a valid Anthropic signature was left out of the request (the API rejects unsigned thinking)',
        });
      } else {
        blocks.push(...replay);
      }
    } else {
      blocks.push(mediaBlock(part));
    }
  }
  if (message.reasoningContent !== undefined && message.reasoningContent !== '') {
    warnings.push({
      type: 'other',
      message: 'reasoningContent without a signature was left out of the request (the API rejects unsigned thinking)',
    });
  }
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: replayArguments(call.arguments) });
  }
  return blocks;
}

function toolResultBlock(message: Extract<Message, { role: 'tool' }>): WireBlock {
  const content =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : mediaBlock(part)));
  return {
    type: 'tool_result',
    tool_use_id: message.toolCallId,
    content,
    ...(message.isError === true ? { is_error: true } : {}),
  };
}

/**
 * Translates the conversation: system messages become `system` blocks (in order, wherever they
 * stand); user turns and tool results become `user` messages, consecutive ones merged, with
 * `tool_result` blocks first as the API requires; assistant turns replay their signed thinking
 * and opaque blocks unchanged first, then text, media and `tool_use` blocks. Empty text is never
 * sent (the API rejects empty text blocks).
 * @internal
 */
export function toWireMessages(messages: readonly Message[], warnings: LanguageModelV1CallWarning[]): WirePrompt {
  const system: WireBlock[] = [];
  const wire: WireMessage[] = [];
  const append = (role: 'user' | 'assistant', blocks: WireBlock[], first = false): void => {
    const last = wire[wire.length - 1];
    if (last?.role === role) {
      if (first) {
        const results = last.content.filter((block) => block.type === 'tool_result');
        const rest = last.content.filter((block) => block.type !== 'tool_result');
        last.content = [...results, ...blocks, ...rest];
      } else {
        last.content.push(...blocks);
      }
    } else {
      wire.push({ role, content: [...blocks] });
    }
  };
  let latestAssistant = -1;
  for (let index = messages.length - 1; index >= 0; index -= 1)
    if (messages[index]?.role === 'assistant') {
      latestAssistant = index;
      break;
    }
  // How many wire messages (empty ones included) existed when the latest assistant turn came.
  let before = -1;
  for (const [index, message] of messages.entries()) {
    if (index === latestAssistant) before = wire.length;
    switch (message.role) {
      case 'system': {
        const text =
          typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('\n');
        if (text !== '') system.push({ type: 'text', text });
        break;
      }
      case 'user':
        append('user', userBlocks(message.content));
        break;
      case 'tool':
        append('user', [toolResultBlock(message)], true);
        break;
      case 'assistant':
        append('assistant', assistantBlocks(message, warnings));
        break;
    }
  }
  let previousEnd: number | undefined;
  if (before > 0) {
    // Its position among the messages sent (empty ones are dropped).
    let kept = 0;
    for (let index = 0; index < before; index += 1) if ((wire[index]?.content.length ?? 0) > 0) kept += 1;
    if (kept > 0) previousEnd = kept - 1;
  }
  const sent = wire.filter((message) => message.content.length > 0);
  return previousEnd === undefined ? { system, messages: sent } : { system, messages: sent, previousEnd };
}
