/**
 * Where `cache_control` breakpoints go (the API allows four per request). `true` is
 * `{ system: true, tools: true, messages: 2 }`.
 */
export interface AnthropicCacheControl {
  /** Mark the last system block. Default `true`. */
  readonly system?: boolean | undefined;
  /** Mark the last tool declaration (caching every tool before it). Default `true`. */
  readonly tools?: boolean | undefined;
  /** Mark the last block of this many of the latest user turns. Default 2. */
  readonly messages?: number | undefined;
  /** The cache lifetime; `5m` (the API's default) when absent. */
  readonly ttl?: '5m' | '1h' | undefined;
}

/**
 * Settings read from `providerOptions.anthropic` and, for a provider with another name (`local`
 * for `localMessages`), `providerOptions[<name>]` over it; both over the model's own
 * `providerOptions`.
 */
export interface AnthropicProviderOptions {
  /**
   * Extended thinking: `{ type: 'enabled', budgetTokens }` sends `thinking` with that budget
   * (`maxTokens` must be larger); thinking blocks come back as reasoning with their signatures.
   */
  readonly thinking?:
    | { readonly type: 'enabled'; readonly budgetTokens: number }
    | { readonly type: 'disabled' }
    | undefined;
  /**
   * Prompt-caching breakpoints; off when absent or `false`. `'auto'` places them at the end of the
   * stable prefix, for agent loops whose requests only append: the newest message, the last tool,
   * the last system block and the end of the previous request (the message before the latest
   * assistant turn), in that priority. Every mode keeps breakpoints the request already carries
   * (in `serverTools`, say) and never exceeds the API's four.
   */
  readonly cacheControl?: boolean | 'auto' | AnthropicCacheControl | undefined;
  /** Sent as `tool_choice.disable_parallel_tool_use`; also on when the profile has no parallel calls. */
  readonly disableParallelToolUse?: boolean | undefined;
  /** Sampling `top_k`. */
  readonly topK?: number | undefined;
  /** `metadata.user_id`: an opaque id of the end user, for abuse detection. */
  readonly userId?: string | undefined;
  /**
   * Server tool declarations sent as they are after the function tools (`{ type:
   * 'web_search_20250305', name: 'web_search', max_uses: 3 }`). Their blocks come back as
   * provider-executed content, never as calls for the harness to run.
   */
  readonly serverTools?: readonly Readonly<Record<string, unknown>>[] | undefined;
  /** `anthropic-beta` flags, joined with commas. */
  readonly betas?: readonly string[] | undefined;
}
