import type { LanguageModelV1Response, LanguageModelV1StreamPart } from '@tiny/llm';
import type { HttpLimits } from '../limits/http-limits.js';
import { type ModelCallErrors, type ModelErrorContext, readModelJson } from './http-language-model.js';

/** A whole answer as an adapter parses it (a response without its raw request and response). */
export type WholeTurn = Omit<LanguageModelV1Response, 'warnings' | 'request' | 'response'>;

/**
 * The parts a stream of a whole answer would carry, in stream order: its metadata, reasoning,
 * text, refusal, each call started and ended at once, the reasoning signature, then the finish.
 */
export function* partsOfWholeTurn(turn: WholeTurn): Generator<LanguageModelV1StreamPart> {
  yield { type: 'response_metadata', id: turn.id, modelId: turn.modelId };
  if (turn.reasoning !== undefined && turn.reasoning !== '') yield { type: 'reasoning_delta', delta: turn.reasoning };
  if (turn.content !== '') yield { type: 'text_delta', delta: turn.content };
  if (turn.refusal !== undefined) yield { type: 'refusal_delta', delta: turn.refusal };
  for (const call of turn.toolCalls) {
    yield { type: 'tool_call_start', id: call.id, name: call.name };
    yield { type: 'tool_call_end', id: call.id, call };
  }
  if (turn.reasoningSignature !== undefined)
    yield { type: 'reasoning_delta', delta: '', signature: turn.reasoningSignature };
  yield {
    type: 'finish',
    finishReason: turn.finishReason,
    ...(turn.rawFinishReason === undefined ? {} : { rawFinishReason: turn.rawFinishReason }),
    usage: turn.usage,
  };
}

/**
 * The parts of a server that answered a streamed request with one JSON body: the body read (see
 * `readModelJson`) and parsed by `parse`, then {@link partsOfWholeTurn}. A failure to read or parse
 * it is one `error` part; an abort rethrows the signal's reason.
 */
export async function* wholeBodyParts<TError extends Error, TContext extends ModelErrorContext>(
  response: Response,
  context: TContext & {
    readonly headers?: Headers | undefined;
    readonly signal?: AbortSignal | undefined;
    readonly limits?: HttpLimits | undefined;
  },
  errors: Pick<ModelCallErrors<TError>, 'transport' | 'refused'>,
  parse: (json: unknown, raw: string) => WholeTurn,
): AsyncGenerator<LanguageModelV1StreamPart> {
  let turn: WholeTurn;
  try {
    const { raw, json } = await readModelJson(response, context, context, errors);
    turn = parse(json, raw);
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    yield { type: 'error', error };
    return;
  }
  yield* partsOfWholeTurn(turn);
}
