/**
 * Why the model stopped.
 * - `stop`: a natural end or a stop sequence.
 * - `length`: the output token limit (`maxTokens`) was reached; the content may be cut off.
 * - `tool_calls`: the model stopped to have tools run.
 * - `content_filter`: the provider withheld or cut the content.
 * - `error`: the provider reported an error while generating, or ended the turn with a reason
 *   the adapter does not know (an abort, a resource shortage, a new value): not a normal end.
 * - `other`: a known reason that is none of the above (Anthropic's `pause_turn`), or no reason at
 *   all (a response that said nothing).
 *
 * Adapters map the provider's own value onto one of these and keep the original as
 * `rawFinishReason`. A value they do not know maps to `error`, never to `stop`, `tool_calls` or
 * `other`, so a harness refuses the calls of that turn (`length`, `content_filter` and `error`
 * are broken turns) instead of running calls that may be cut off or filtered.
 */
export type LanguageModelV1FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'other';
