import { asRecord } from '@tiny/provider-utils';

/**
 * Options of the Responses API adapter, under `providerOptions.openai` (or the provider's own
 * name) of a request, or `settings.providerOptions` of a model; a request's win key by key.
 */
export interface OpenAIResponsesProviderOptions {
  /**
   * Whether the API stores the response. Default `false`: stateless, every turn's reasoning items
   * come back with `encrypted_content` (`include: ['reasoning.encrypted_content']`) and are
   * replayed from the transcript. `true` with `previousResponseId` chains on the server instead.
   */
  readonly store?: boolean | undefined;
  /**
   * Continue a stored response (`previous_response_id`): only the messages after the last
   * assistant turn are sent, the server holds the rest. Needs a response stored with `store: true`.
   */
  readonly previousResponseId?: string | undefined;
  /** `reasoning.effort` (`none`, `minimal`, `low`, `medium`, `high`, `xhigh`). */
  readonly reasoningEffort?: string | undefined;
  /** `reasoning.summary` (`auto`, `concise`, `detailed`): reasoning summaries come back as reasoning text. */
  readonly reasoningSummary?: string | undefined;
  /** `parallel_tool_calls`; default: the profile's `parallelToolCalls`. */
  readonly parallelToolCalls?: boolean | undefined;
  /**
   * Hosted tool declarations sent as given after the function tools (`{ type: 'web_search' }`,
   * `{ type: 'file_search', vector_store_ids }`, `{ type: 'code_interpreter', container }`). The
   * provider runs them; their items come back for replay and never become calls the harness runs.
   */
  readonly hostedTools?: readonly Readonly<Record<string, unknown>>[] | undefined;
  /**
   * Ask for `reasoning.encrypted_content` when not storing (default `true`). The local presets turn
   * it off: their servers keep no encrypted reasoning, and some reject the `include` value.
   */
  readonly encryptedReasoning?: boolean | undefined;
  /** Extra `include` values (`file_search_call.results`, `web_search_call.action.sources`, ...). */
  readonly include?: readonly string[] | undefined;
  /** `text.verbosity` (`low`, `medium`, `high`). */
  readonly textVerbosity?: string | undefined;
  /** `service_tier` (`auto`, `default`, `flex`, `priority`). */
  readonly serviceTier?: string | undefined;
  /** `prompt_cache_key`. */
  readonly promptCacheKey?: string | undefined;
  /** `safety_identifier` (formerly `user`). */
  readonly safetyIdentifier?: string | undefined;
  /** `metadata`, up to 16 string pairs. */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
  /** `truncation` (`auto` or `disabled`). */
  readonly truncation?: 'auto' | 'disabled' | undefined;
}

/**
 * The options for one request: the model's, then `providerOptions.openai`, then the provider's
 * own key when it is named otherwise (`azure`, `local`), each winning key by key.
 * @internal
 */
export function readProviderOptions(
  model: OpenAIResponsesProviderOptions,
  given: Readonly<Record<string, unknown>> | undefined,
  provider: string,
): OpenAIResponsesProviderOptions {
  const shared = asRecord(given?.openai) ?? {};
  const own = provider === 'openai' ? {} : (asRecord(given?.[provider]) ?? {});
  return { ...model, ...shared, ...own } as OpenAIResponsesProviderOptions;
}
