import type { LanguageModelV1Response, LanguageModelV1ToolCall } from '@tiny/llm';
import { refuseRepeatedIds } from '@tiny/provider-utils';
import { decodeToolInput } from './decode-tool-input.js';
import { extraContentOf, mapFinishReason, mapUsage, mapWarnings, signatureOf } from './map-result-fields.js';
import { readRefusal } from './read-refusal.js';

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Maps an AI SDK `doGenerate` result: text parts joined as the content, reasoning parts joined as
 * `reasoning` (the signature of a single signed reasoning part as `reasoningSignature`), tool calls
 * decoded through the invalid-call path with their provider metadata as `extraContent`; when two
 * share a `toolCallId`, every call of the response is refused (`refuseRepeatedIds`), as in a stream.
 * Provider-executed calls and their results (server tools) are left out of `toolCalls`: the
 * provider already ran them. Files and sources have no place in the response and stay in the raw
 * result (`response.body`). A refusal the SDK exposes (see `readRefusal`) is `refusal`; the text
 * stays in `content` as a stream of the same answer would have it, never to be read as an answer.
 * @internal
 */
export function mapGenerateResult(result: unknown): Omit<LanguageModelV1Response, 'request'> {
  const record = asRecord(result) ?? {};
  const content = Array.isArray(record.content) ? record.content : [];
  let text = '';
  const reasoning: string[] = [];
  const signatures: string[] = [];
  const toolCalls: LanguageModelV1ToolCall[] = [];
  for (const item of content) {
    const part = asRecord(item);
    if (part === undefined) continue;
    if (part.type === 'text' && typeof part.text === 'string') text += part.text;
    if (part.type === 'reasoning' && typeof part.text === 'string') {
      reasoning.push(part.text);
      const signature = signatureOf(part.providerMetadata);
      if (signature !== undefined) signatures.push(signature);
    }
    if (part.type === 'tool-call' && part.providerExecuted !== true) {
      const id = String(part.toolCallId);
      toolCalls.push(
        decodeToolInput(id, String(part.toolName), part.input, 'response', extraContentOf(part.providerMetadata)),
      );
    }
  }
  const response = asRecord(record.response);
  const id = typeof response?.id === 'string' ? response.id : undefined;
  const modelId = typeof response?.modelId === 'string' ? response.modelId : undefined;
  const headers = asRecord(response?.headers) as Record<string, string> | undefined;
  const finish = mapFinishReason(record.finishReason);
  const refusal = readRefusal({ ...finish, providerMetadata: record.providerMetadata, text });
  return {
    ...(id === undefined ? {} : { id }),
    ...(modelId === undefined ? {} : { modelId }),
    content: text,
    ...(reasoning.length === 0 ? {} : { reasoning: reasoning.join('') }),
    ...(signatures.length === 1 && reasoning.length === 1 ? { reasoningSignature: signatures[0] } : {}),
    ...(refusal === undefined ? {} : { refusal }),
    // Two calls under one id: which one a result answers is ambiguous, so none of them may run.
    toolCalls: [...refuseRepeatedIds(toolCalls)],
    ...finish,
    usage: mapUsage(record.usage),
    warnings: mapWarnings(record.warnings),
    response: { body: response?.body ?? result, ...(headers === undefined ? {} : { headers }) },
  };
}
