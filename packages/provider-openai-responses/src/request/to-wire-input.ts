import {
  type FilePart,
  type ImagePart,
  InvalidInputError,
  type LanguageModelV1CallWarning,
  type Message,
  type TextPart,
} from '@tiny/llm';
import { decodeReplay, isReplayEnvelope, type ReplaySlot } from './replay-items.js';

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
  let order: ReplaySlot[] | undefined;
  let orderStart = 0;
  const parts =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content } as const] : message.content;
  let text = '';
  for (const part of parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') {
      const replay = part.signature === undefined ? undefined : decodeReplay(part.signature);
      if (replay === undefined && part.signature !== undefined && isReplayEnvelope(part.signature)) {
        // Dropping it would replay the turn without its encrypted reasoning: never silently.
        throw new InvalidInputError({
          entryPoint: 'openai-responses request',
          reason:
            "an assistant reasoning part carries this adapter's replay envelope, but it does not decode (damaged, or it holds a message, a call or a call output); the turn cannot be replayed as recorded",
        });
      }
      if (replay === undefined) {
        warnings.push({
          type: 'other',
          message:
            "an assistant reasoning part without this adapter's replay envelope was left out of the request (the Responses API replays reasoning only as the items it sent)",
        });
      } else if (replay.order !== undefined && order === undefined) {
        order = replay.order;
        orderStart = items.length;
        items.push(...replay.items.map((item) => ({ ...item })));
      } else {
        items.push(...replay.items.map((item) => ({ ...item })));
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
  const message_: WireItem[] = text === '' ? [] : [{ role: 'assistant', content: text }];
  const calls: WireItem[] = (message.toolCalls ?? []).map((call) => ({
    type: 'function_call',
    call_id: call.id,
    name: call.name,
    arguments: call.arguments,
  }));
  if (order === undefined) return [...items, ...message_, ...calls];
  return interleave(order, orderStart, items, text, calls);
}

/**
 * The assistant turn's items in the order the model produced them (`order`, from the envelope):
 * each `r` takes the next replay item of the ordered envelope (whose items start at `start`), each
 * `m:<length>` a message of the next `<length>` units of the turn's text (the last message slot
 * takes the rest; an `m` of older envelopes all of it), `c:<id>` the call of that id.
 * The order only places: what it does not name (other envelopes' items, a call it does not
 * list, the text when it lists no message) keeps the unordered place (replay items first, then the
 * message, then the calls), and a slot naming nothing the turn holds is skipped.
 */
function interleave(
  order: readonly ReplaySlot[],
  start: number,
  replay: WireItem[],
  text: string,
  calls: WireItem[],
): WireItem[] {
  const out: WireItem[] = replay.slice(0, start);
  let next = start;
  let used = 0;
  const lastMessage = order.reduce((last, slot, index) => (slot === 'm' || slot.startsWith('m:') ? index : last), -1);
  const placed = new Set<WireItem>();
  for (const [index, slot] of order.entries()) {
    if (slot === 'r') {
      const item = replay[next];
      next += 1;
      if (item !== undefined) out.push(item);
    } else if (slot === 'm' || slot.startsWith('m:')) {
      const end = slot === 'm' || index === lastMessage ? text.length : used + Number(slot.slice(2));
      const piece = text.slice(used, end);
      used = Math.max(used, Math.min(end, text.length));
      if (piece !== '') out.push({ role: 'assistant', content: piece });
    } else if (slot.startsWith('c:')) {
      const call = calls.find((item) => item.call_id === slot.slice(2) && !placed.has(item));
      if (call !== undefined) {
        placed.add(call);
        out.push(call);
      }
    }
  }
  out.push(...replay.slice(next));
  if (used < text.length) out.push({ role: 'assistant', content: text.slice(used) });
  out.push(...calls.filter((call) => !placed.has(call)));
  return out;
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
 * `input_file` parts; an assistant turn as its replay items (the reasoning and hosted tool items of
 * its reasoning part's envelope, unchanged), its text and one `function_call` per call with the
 * argument text as recorded, in the output order the envelope kept (else replay items first, then
 * the text, then the calls); tool results as `function_call_output` by `call_id`.
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
