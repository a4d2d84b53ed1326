/**
 * Why the model stopped.
 * - `stop`: a natural end or a stop sequence.
 * - `length`: the output token limit (`maxTokens`) was reached; the content may be cut off.
 * - `tool_calls`: the model stopped to have tools run.
 * - `content_filter`: the provider withheld or cut the content.
 * - `error`: the provider reported an error while generating.
 * - `other`: anything else, including a stream that ended without saying why.
 *
 * Adapters map the provider's own value onto one of these and keep the original as
 * `rawFinishReason`.
 */
export type LanguageModelV1FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'other';
