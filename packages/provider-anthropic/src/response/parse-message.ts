import { createRefusedToolCall, type LanguageModelV1Response, type LanguageModelV1ToolCall } from '@tiny/llm';
import { asArray, asNonEmptyString, asRecord, asString, refuseRepeatedIds } from '@tiny/provider-utils';
import { type ErrorContext, errorFromEvent, transportError } from '../errors/create-call-error.js';
import { encodeOpaqueBlocks, type OpaqueBlock } from '../request/opaque-blocks.js';
import { decodeToolInput } from './decode-tool-input.js';
import { mapStopReason, rawStopReason } from './map-stop-reason.js';
import { mapUsage, readUsage } from './map-usage.js';
import { readRefusal } from './read-refusal.js';

/** The parts of a response read from its content blocks. @internal */
export type ParsedMessage = Omit<LanguageModelV1Response, 'warnings' | 'request' | 'response'>;

/** The most content blocks one message may hold; more is a flood, not a turn. @internal */
export const MAX_MESSAGE_BLOCKS = 512;

/** Joins the text of several thinking blocks (a stream emits the same separator). @internal */
export const THINKING_SEPARATOR = '\n\n';

/**
 * Reads a Messages API response body: text blocks joined as the content (citations stay in the
 * raw body); `tool_use` blocks as calls, decoded leniently, the last one invalid when `max_tokens`
 * cut it off; thinking as `reasoning` and every block the adapter must replay unchanged (thinking
 * with its signature, redacted thinking, server-tool blocks, unknown blocks) as the
 * `reasoningSignature` (see `encodeOpaqueBlocks`). A `refusal` stop sets `refusal` to the
 * `stop_details` explanation (see `readRefusal`); a `stop_reason` that is missing, not a string or
 * `pause_turn` makes a turn with tool calls finish `error` (see `mapStopReason`); `content` then keeps only the text the streaming
 * classifier cut off, never an answer, as a stream of the same message would.
 *
 * @throws {AnthropicCallError} when the body is an error object (`{"type":"error",...}`); of kind
 *   `protocol_violation` when it holds more than `MAX_MESSAGE_BLOCKS` (512) content blocks.
 * @internal
 */
export function parseMessage(body: unknown, raw: string, context: ErrorContext & { headers?: Headers }): ParsedMessage {
  const message = asRecord(body);
  // An error envelope answered with 200: Anthropic's `{type: 'error', error}` or an OpenAI-shaped
  // `{error: {...}}` from a relay; the inner type decides the kind.
  if (
    (typeof message?.type === 'string' && message.type.toLowerCase() === 'error') ||
    (message?.error !== undefined && message.error !== null)
  )
    throw errorFromEvent(body, raw, context, 'answered with an error body');
  // `{}` (or a body without a content array) is no message: an invalid response, never an empty answer.
  if (!Array.isArray(message?.content))
    throw transportError('answered with no message (the body has no content array)', undefined, {
      ...context,
      kind: 'invalid_response',
    });
  const blocks = asArray(message?.content);
  if (blocks.length > MAX_MESSAGE_BLOCKS)
    throw transportError(`broke the protocol: sent more than ${MAX_MESSAGE_BLOCKS} content blocks`, undefined, {
      ...context,
      kind: 'protocol_violation',
    });
  const stopReason = rawStopReason(message?.stop_reason);
  const lastToolIndex = blocks.reduce<number>(
    (last, block, index) => (asRecord(block)?.type === 'tool_use' ? index : last),
    -1,
  );
  const truncated = stopReason === 'max_tokens' && lastToolIndex === blocks.length - 1;
  let content = '';
  const thinking: string[] = [];
  const opaque: OpaqueBlock[] = [];
  const toolCalls: LanguageModelV1ToolCall[] = [];
  blocks.forEach((value, index) => {
    const block = asRecord(value);
    if (block === undefined || typeof block.type !== 'string') return;
    if (block.type === 'text') {
      content += asString(block.text) ?? '';
    } else if (block.type === 'tool_use') {
      const id = asString(block.id) ?? `toolu_${index}`;
      const name = asString(block.name) ?? '';
      toolCalls.push(decodeToolInput(id, name, block.input, 'response', truncated && index === lastToolIndex));
    } else {
      if (block.type === 'thinking') thinking.push(asString(block.thinking) ?? '');
      opaque.push(block as OpaqueBlock);
    }
  });
  const signature = encodeOpaqueBlocks(opaque);
  const id = asNonEmptyString(message?.id);
  const modelId = asNonEmptyString(message?.model);
  const refusal = readRefusal(stopReason, message?.stop_details);
  return {
    ...(id === undefined ? {} : { id }),
    ...(modelId === undefined ? {} : { modelId }),
    content,
    ...(signature === undefined
      ? {}
      : { reasoning: thinking.filter((text) => text !== '').join(THINKING_SEPARATOR), reasoningSignature: signature }),
    ...(refusal === undefined ? {} : { refusal }),
    toolCalls: refuseServerToolIds(refuseRepeatedIds(toolCalls), opaque),
    finishReason: mapStopReason(message?.stop_reason, toolCalls.length > 0),
    ...(stopReason === undefined ? {} : { rawFinishReason: stopReason }),
    usage: mapUsage(readUsage(message?.usage)),
  };
}

/**
 * Every call refused when a `tool_use` shares its id with a server tool's block (`server_tool_use`,
 * `mcp_tool_use`): which one a result answers is ambiguous, so none may run.
 */
function refuseServerToolIds(
  calls: readonly LanguageModelV1ToolCall[],
  blocks: readonly OpaqueBlock[],
): readonly LanguageModelV1ToolCall[] {
  const blockIds = new Set(blocks.map((block) => asString((block as Record<string, unknown>).id)));
  const clash = calls.find((call) => blockIds.has(call.id))?.id;
  if (clash === undefined) return calls;
  const reason = `the response broke the protocol: tool id \`${clash}\` names a tool_use and a server tool block; no call of it may run`;
  return calls.map((call) => {
    if (call.refused === true) return call;
    const raw =
      call.rawArguments ?? (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments));
    return { ...call, ...createRefusedToolCall(call.id, call.name, raw, reason), rawArguments: raw };
  });
}
