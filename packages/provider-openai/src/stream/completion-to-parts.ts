import type { LanguageModelV1StreamPart } from '@tiny/llm';
import { readJsonBody } from '@tiny/provider-utils';
import { httpFailureError, transportError } from '../errors/create-call-error.js';
import { type Completion, parseCompletion } from '../response/parse-completion.js';
import type { StreamContext } from '../response/read-context.js';

/**
 * The parts for a server that answered a streaming request with one JSON body (some proxies and
 * older local servers ignore `stream: true`): the parsed completion replayed as metadata,
 * reasoning, text, tool calls (each ended with its decoded call) and a finish.
 * @internal
 */
export async function* completionToParts(
  response: Response,
  context: StreamContext,
): AsyncGenerator<LanguageModelV1StreamPart> {
  let completion: Completion;
  try {
    const { raw, json } = await readJsonBody(response, context, {
      refused: (failure) => httpFailureError(failure, { ...context, httpStatus: response.status }),
      lost: (what, cause) => transportError(what, cause, context),
      notJson: (what, cause) =>
        transportError(what, cause, { ...context, kind: 'invalid_chunk_json', httpStatus: response.status }),
    });
    completion = parseCompletion(json, raw, context);
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    yield { type: 'error', error };
    return;
  }
  yield* partsOfCompletion(completion);
}

/** The parts that replay a whole completion: metadata, reasoning, refusal, text, calls, finish. @internal */
export function* partsOfCompletion(completion: Completion): Generator<LanguageModelV1StreamPart> {
  if (completion.id !== undefined || completion.modelId !== undefined) {
    yield { type: 'response_metadata', id: completion.id, modelId: completion.modelId };
  }
  if (completion.reasoning !== undefined) yield { type: 'reasoning_delta', delta: completion.reasoning };
  if (completion.refusal !== undefined) yield { type: 'refusal_delta', delta: completion.refusal };
  if (completion.content !== '') yield { type: 'text_delta', delta: completion.content };
  for (const call of completion.toolCalls) {
    yield { type: 'tool_call_start', id: call.id, name: call.name };
    const text =
      call.rawArguments ?? (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments));
    if (text !== '') yield { type: 'tool_call_delta', id: call.id, argumentsDelta: text };
    yield { type: 'tool_call_end', id: call.id, call };
  }
  yield {
    type: 'finish',
    finishReason: completion.finishReason,
    ...(completion.rawFinishReason === undefined ? {} : { rawFinishReason: completion.rawFinishReason }),
    ...(completion.choices === undefined ? {} : { choices: completion.choices }),
    usage: completion.usage,
  };
}
