import type { LanguageModelV1FinishReason } from './finish-reason.js';
import type { LanguageModelV1ToolCall } from './tool-call.js';

/**
 * One of several answers to a request that asked for more than one (`n > 1`, say). The response's
 * own fields are choice `0`; `choices` lists every choice, choice `0` included, by `index`.
 */
export interface LanguageModelV1Choice {
  /** The choice's index as the provider numbered it (`0` is the response's own answer). */
  readonly index: number;
  readonly content: string;
  readonly reasoning?: string | undefined;
  /** The choice's refusal, as on {@link LanguageModelV1Response.refusal}. */
  readonly refusal?: string | undefined;
  readonly toolCalls: readonly LanguageModelV1ToolCall[];
  readonly finishReason: LanguageModelV1FinishReason;
  readonly rawFinishReason?: string | undefined;
}
