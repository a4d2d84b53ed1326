/**
 * Gemini-specific request settings, under `providerOptions.google` (or the provider's `name`) of
 * a request, or the model's `providerOptions`; the request's win key by key.
 */
export interface GoogleProviderOptions {
  /**
   * `generationConfig.thinkingConfig`: `thinkingBudget` (tokens; `0` turns thinking off on models
   * that allow it, `-1` dynamic), `thinkingLevel` (`low` / `high` on Gemini 3), and
   * `includeThoughts` (send thought summaries back; they arrive as reasoning).
   */
  readonly thinkingConfig?:
    | {
        readonly thinkingBudget?: number | undefined;
        readonly thinkingLevel?: string | undefined;
        readonly includeThoughts?: boolean | undefined;
      }
    | undefined;
  /** `safetySettings`, sent as given (`[{ category, threshold }]`). */
  readonly safetySettings?: readonly Readonly<Record<string, string>>[] | undefined;
  /** `generationConfig.topK`. */
  readonly topK?: number | undefined;
  /** `cachedContent`: the name of a cached context (`cachedContents/...`) to answer from. */
  readonly cachedContent?: string | undefined;
  /** Vertex AI `labels` for billing, sent as given. */
  readonly labels?: Readonly<Record<string, string>> | undefined;
}
