import type { Message } from '../messages/message.js';
import type { LanguageModelV1CallWarning } from './call-warning.js';
import type { LanguageModelV1Choice } from './choice.js';
import type { LanguageModelV1FinishReason } from './finish-reason.js';
import type { ModelProfile } from './model-profile.js';
import type { LanguageModelV1ResponseFormat } from './response-format.js';
import type { LanguageModelV1StreamPart } from './stream-part.js';
import type { LanguageModelV1ToolCall } from './tool-call.js';
import type { ToolChoice } from './tool-choice.js';
import type { ToolSchema } from './tool-schema.js';
import type { LanguageModelV1Usage } from './usage.js';

/** One request to a model; the same shape for `doGenerate` and `doStream`. */
export interface LanguageModelV1Request {
  /** The conversation, oldest first. Adapters translate it to the provider's wire shape. */
  readonly messages: readonly Message[];
  /** Tools the model may call. Absent or empty: no tools are sent. */
  readonly tools?: readonly ToolSchema[] | undefined;
  /** Whether and which tool must be called; `auto` when absent. Ignored without tools. */
  readonly toolChoice?: ToolChoice | undefined;
  /** The shape of the text answer; `text` when absent. */
  readonly responseFormat?: LanguageModelV1ResponseFormat | undefined;
  /** Upper bound on generated tokens; the provider's default when absent. */
  readonly maxTokens?: number | undefined;
  readonly temperature?: number | undefined;
  readonly topP?: number | undefined;
  /** Sequences that end generation; the sequence itself is not part of the content. */
  readonly stopSequences?: readonly string[] | undefined;
  /** Seed for providers with reproducible sampling; others report an `unsupported_setting` warning. */
  readonly seed?: number | undefined;
  /** Extra HTTP headers; an `undefined` value removes a header the adapter would set. */
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Provider-specific settings, opaque to this package. By convention keyed by provider name
   * (`{ openai: { reasoningEffort: 'low' } }`); adapters read only their own key.
   */
  readonly providerOptions?: Readonly<Record<string, unknown>> | undefined;
  /** Cancels the call; adapters reject with the signal's reason and stop reading the stream. */
  readonly abortSignal?: AbortSignal | undefined;
}

// Declared with their owners (the tool call and choice shapes, which stream parts share too).
export type { LanguageModelV1Choice } from './choice.js';
export type { LanguageModelV1ToolCall } from './tool-call.js';

/** Raw bodies of the exchange, for logs and debugging. */
export interface LanguageModelV1RawRequest {
  /** The request body as sent (usually the JSON object before serialisation). */
  readonly body?: unknown;
}

/** Raw details of the provider's answer, for logs and debugging. */
export interface LanguageModelV1RawResponse {
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly statusCode?: number | undefined;
}

/** The answer to `doGenerate`. */
export interface LanguageModelV1Response {
  /** The provider's response id, when it sends one. */
  readonly id?: string | undefined;
  /** The model that actually answered (may differ from the requested id, e.g. a dated snapshot). */
  readonly modelId?: string | undefined;
  /** The assistant's text; `''` when the model only called tools or said nothing. */
  readonly content: string;
  /** Reasoning text returned separately from the content, when the provider exposes it. */
  readonly reasoning?: string | undefined;
  /** The provider's opaque proof for `reasoning`, kept for replay (Anthropic thinking signatures). */
  readonly reasoningSignature?: string | undefined;
  /**
   * The model declined the request, in its own words (OpenAI's `message.refusal`, sent for
   * structured outputs and strict tools instead of an answer). When set, `content` holds no answer
   * (it is usually `''`) and must not be read as one; `finishReason` is `content_filter`. Absent
   * when the model did not refuse.
   */
  readonly refusal?: string | undefined;
  /** Calls in the order the model made them; empty when none. */
  readonly toolCalls: readonly LanguageModelV1ToolCall[];
  readonly finishReason: LanguageModelV1FinishReason;
  /** The provider's own finish reason, unmapped (`end_turn`, `STOP`, ...). */
  readonly rawFinishReason?: string | undefined;
  /**
   * Every choice, by `index`, when the provider returned more than one (the request asked for
   * several, e.g. the `n` provider option); absent otherwise. The response's own fields are
   * choice `0`.
   */
  readonly choices?: readonly LanguageModelV1Choice[] | undefined;
  readonly usage: LanguageModelV1Usage;
  /** Request settings the provider ignored; empty when none. */
  readonly warnings: readonly LanguageModelV1CallWarning[];
  readonly request?: LanguageModelV1RawRequest | undefined;
  readonly response?: LanguageModelV1RawResponse | undefined;
}

/** The answer to `doStream`: the parts, plus what is known before the first part. */
export interface LanguageModelV1StreamResult {
  /**
   * The parts in arrival order. Iterate it once. Transport failures in the middle of the stream
   * arrive as an `error` part; iteration itself throws only for cancellation.
   */
  readonly stream: AsyncIterable<LanguageModelV1StreamPart>;
  readonly warnings: readonly LanguageModelV1CallWarning[];
  readonly request?: LanguageModelV1RawRequest | undefined;
  readonly response?: Omit<LanguageModelV1RawResponse, 'body'> | undefined;
}

/**
 * A language model as adapters implement it, in the style of the Vercel AI SDK provider spec.
 * Adapters live in their own packages and depend on this one only. Both methods reject with a
 * `ModelCallError` when the call fails before any content arrives (with `isRetryable` set per
 * `isRetryableStatus`), and with the abort reason when `abortSignal` fires.
 */
export interface LanguageModelV1 {
  readonly specificationVersion: 'v1';
  /** Provider id, lower case (`openai`, `anthropic`, `ollama`). */
  readonly provider: string;
  /** The model id as the provider names it. */
  readonly modelId: string;
  /** What the model can do; callers choose tool and structured-output strategies from it. */
  readonly profile: ModelProfile;
  /** Runs the model to completion. */
  doGenerate(request: LanguageModelV1Request): Promise<LanguageModelV1Response>;
  /** Runs the model and yields parts as they arrive; fold them with `collectStream`. */
  doStream(request: LanguageModelV1Request): Promise<LanguageModelV1StreamResult>;
  /**
   * What the model sends on every request from its own settings, not from the request: the
   * settings it was created with (model-level provider options such as Anthropic `serverTools`,
   * a default `max_tokens`, the API version) and wire forms it switched to by itself. A JSON value,
   * read before each request: a prompt-prefix tracker (the harness's) compares it by canonical
   * content, so a change there is a settings change of the prompt prefix. It holds no secret (no
   * API key, no header value). Optional: a model without it is taken to send nothing of its own.
   */
  wireSettings?(): unknown;
}
