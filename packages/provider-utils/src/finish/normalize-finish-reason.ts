/** The spec's finish reasons (`LanguageModelV1FinishReason` of `@tiny/llm`). */
export type NormalizedFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'other';

/**
 * Finish reasons of the APIs and servers the adapters meet, lower-cased:
 * OpenAI (`stop`, `length`, `tool_calls`, `content_filter`, legacy `function_call`), Anthropic
 * (`end_turn`, `stop_sequence`, `max_tokens`, `tool_use`, `pause_turn`, `refusal`,
 * `model_context_window_exceeded`), Gemini (`STOP`, `MAX_TOKENS`, `SAFETY`, `RECITATION`,
 * `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`, `LANGUAGE`, `MALFORMED_FUNCTION_CALL`,
 * `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`, `OTHER`), Mistral (`model_length`, `error`),
 * DeepSeek (`insufficient_system_resource`), vLLM (`abort`), Ollama `done_reason` (`load`,
 * `unload`), Hugging Face TGI (`eos_token`), Together (`eos`), Cohere (`COMPLETE`, `TOOL_CALL`,
 * `ERROR_TOXIC`, `ERROR_LIMIT`), Bedrock (`guardrail_intervened`, `content_filtered`).
 */
const KNOWN: ReadonlyMap<string, NormalizedFinishReason> = new Map(
  Object.entries({
    stop: 'stop',
    eos: 'stop',
    eos_token: 'stop',
    end_turn: 'stop',
    stop_sequence: 'stop',
    complete: 'stop',
    length: 'length',
    max_tokens: 'length',
    model_length: 'length',
    model_context_window_exceeded: 'length',
    tool_calls: 'tool_calls',
    tool_call: 'tool_calls',
    tool_use: 'tool_calls',
    function_call: 'tool_calls',
    content_filter: 'content_filter',
    content_filtered: 'content_filter',
    refusal: 'content_filter',
    safety: 'content_filter',
    recitation: 'content_filter',
    blocklist: 'content_filter',
    prohibited_content: 'content_filter',
    spii: 'content_filter',
    image_safety: 'content_filter',
    guardrail_intervened: 'content_filter',
    error_toxic: 'content_filter',
    error: 'error',
    error_limit: 'error',
    abort: 'error',
    insufficient_system_resource: 'error',
    malformed_function_call: 'error',
    unexpected_tool_call: 'error',
    too_many_tool_calls: 'error',
    language: 'error',
    pause_turn: 'other',
  } satisfies Record<string, NormalizedFinishReason>),
);

/**
 * Maps a provider's finish reason onto the spec's, case-insensitively (see the table above for
 * the values known). A value not in the table is not a normal end: it maps to `error`, so a
 * harness refuses the calls of that turn instead of running calls that may be cut off or
 * filtered. Keep the raw value as `rawFinishReason`. Gemini's `OTHER` and
 * `FINISH_REASON_UNSPECIFIED`, Ollama's `load` and `unload` are such values.
 */
export function normalizeFinishReason(raw: string): NormalizedFinishReason {
  // A Map, not an object: `constructor` or `__proto__` from a server must not find a prototype member.
  return KNOWN.get(raw.trim().toLowerCase()) ?? 'error';
}
