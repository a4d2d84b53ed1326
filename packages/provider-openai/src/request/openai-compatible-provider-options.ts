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
   * Merged into the body last, so it can add server-specific fields (`chat_template_kwargs`,
   * `top_k`, `think`) or override any field the adapter set.
   */
  readonly extraBody?: Readonly<Record<string, unknown>> | undefined;
}

function readOne(value: unknown): OpenAICompatibleProviderOptions {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const extra = record.extraBody;
  return {
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
