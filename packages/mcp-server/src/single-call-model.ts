import {
  createModelProfile,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
  type LanguageModelV1StreamResult,
} from '@tiny/llm';

const NO_USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * The "model" of a served call: its first turn is the one call the MCP client made (as a native
 * tool call, so the harness admits it exactly like a model's call), every later turn ends the run
 * with no text. It never invents a call; it only hands the harness the client's. @internal
 */
export function singleCallModel(call: { id: string; name: string; arguments: unknown }): LanguageModelV1 {
  let turns = 0;
  const generate = async (request: LanguageModelV1Request): Promise<LanguageModelV1Response> => {
    if (request.abortSignal?.aborted) throw request.abortSignal.reason;
    turns += 1;
    if (turns === 1)
      return { content: '', toolCalls: [{ ...call }], finishReason: 'tool_calls', usage: NO_USAGE, warnings: [] };
    return { content: '', toolCalls: [], finishReason: 'stop', usage: NO_USAGE, warnings: [] };
  };
  return {
    specificationVersion: 'v1',
    provider: 'mcp-client',
    modelId: 'mcp-client-call',
    profile: createModelProfile(),
    doGenerate: generate,
    async doStream(request): Promise<LanguageModelV1StreamResult> {
      const response = await generate(request);
      async function* parts() {
        for (const toolCall of response.toolCalls) {
          yield { type: 'tool_call_start' as const, id: toolCall.id, name: toolCall.name };
          yield { type: 'tool_call_end' as const, id: toolCall.id, call: toolCall };
        }
        yield { type: 'finish' as const, finishReason: response.finishReason, usage: response.usage };
      }
      return { stream: parts(), warnings: [] };
    },
  };
}
