/** OpenRouter's unified `reasoning` request object. */
export interface OpenRouterReasoningOptions {
  /** `high`, `medium`, `low` (and what the router adds); mutually exclusive with `maxTokens`. */
  readonly effort?: string | undefined;
  /** A reasoning token budget (sent as `max_tokens`). */
  readonly maxTokens?: number | undefined;
  /** Reason, but leave the reasoning out of the response. */
  readonly exclude?: boolean | undefined;
  /** Turn reasoning on (at the default effort) or off. */
  readonly enabled?: boolean | undefined;
}

/**
 * Per-request settings read from `request.providerOptions`, under the key `openaiCompatible` (any
 * server) and under the provider's own name (`openai`, `vllm`, `ollama`, `lmstudio`, `llamacpp`,
 * or the `name` given to `createOpenAICompatible`), the latter winning field by field.
 */
export interface OpenAICompatibleProviderOptions {
  /** Sent as `reasoning_effort` (`low`, `medium`, `high`, ...). */
  readonly reasoningEffort?: string | undefined;
  /** Sent as `user`, an end-user id for abuse monitoring. */
  readonly user?: string | undefined;
  /** Sent as `parallel_tool_calls` instead of the profile's `parallelToolCalls`. */
  readonly parallelToolCalls?: boolean | undefined;
  /**
   * How many choices to generate (`n`, a positive integer). With more than one, the response's own
   * fields are choice `0` and `response.choices` lists them all (streamed choices are kept apart,
   * and delivered on the `finish` part); tools and structured output read choice `0` only.
   */
  readonly n?: number | undefined;
  /** OpenRouter's `reasoning` object (`{ effort, max_tokens, exclude, enabled }`). */
  readonly reasoning?: OpenRouterReasoningOptions | undefined;
  /**
   * Merged into the body last, so it can add server-specific fields (`chat_template_kwargs`,
   * `top_k`, `think`) or override any field the adapter set.
   */
  readonly extraBody?: Readonly<Record<string, unknown>> | undefined;
}

function readReasoning(value: unknown): OpenRouterReasoningOptions | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  return {
    ...(typeof record.effort === 'string' ? { effort: record.effort } : {}),
    ...(typeof record.maxTokens === 'number' ? { maxTokens: record.maxTokens } : {}),
    ...(typeof record.exclude === 'boolean' ? { exclude: record.exclude } : {}),
    ...(typeof record.enabled === 'boolean' ? { enabled: record.enabled } : {}),
  };
}

function readOne(value: unknown): OpenAICompatibleProviderOptions {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const extra = record.extraBody;
  const reasoning = readReasoning(record.reasoning);
  return {
    ...(typeof record.n === 'number' && Number.isInteger(record.n) && record.n >= 1 ? { n: record.n } : {}),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(typeof record.reasoningEffort === 'string' ? { reasoningEffort: record.reasoningEffort } : {}),
    ...(typeof record.user === 'string' ? { user: record.user } : {}),
    ...(typeof record.parallelToolCalls === 'boolean' ? { parallelToolCalls: record.parallelToolCalls } : {}),
    ...(typeof extra === 'object' && extra !== null && !Array.isArray(extra)
      ? { extraBody: extra as Record<string, unknown> }
      : {}),
  };
}

/** Reads the options for `provider`, ignoring fields of the wrong type. @internal */
export function readProviderOptions(
  providerOptions: Readonly<Record<string, unknown>> | undefined,
  provider: string,
): OpenAICompatibleProviderOptions {
  if (providerOptions === undefined) return {};
  return { ...readOne(providerOptions.openaiCompatible), ...readOne(providerOptions[provider]) };
}
