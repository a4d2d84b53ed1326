import type { JsonValue } from '@tiny/tools';
import type { LanguageModelV1Choice } from './choice.js';
import type { LanguageModelV1FinishReason } from './finish-reason.js';
import type { LanguageModelV1ToolCall } from './tool-call.js';
import type { LanguageModelV1Usage } from './usage.js';

/**
 * One event of a streamed model call. Order: an optional `response_metadata`, then text,
 * reasoning and tool-call parts interleaved as they arrive, then one `finish` (or an `error`).
 * - `response_metadata`: the provider's response id and the model that answered.
 * - `text_delta` / `reasoning_delta`: the next piece of text or reasoning (`signature` pieces,
 *   when present, are concatenated like the text).
 * - `refusal_delta`: the next piece of the model's refusal (see `LanguageModelV1Response.refusal`);
 *   pieces concatenate. A stream with a refusal carries no answer in its text.
 * - `tool_call_start`: a call begins; `id` is unique within the response.
 * - `tool_call_delta`: the next piece of the call's argument text; pieces concatenate.
 * - `tool_call_end`: the call's arguments are complete. An adapter that decoded (or repaired) the
 *   arguments itself passes the result as `call`, which then wins over the concatenated pieces.
 * - `finish`: the final reason and usage, and every choice when the provider returned more than
 *   one (the parts before it are choice `0`'s alone).
 * - `error`: a failure reported in the middle of the stream; nothing reliable follows. What came
 *   before it is kept by `collectStreamSettled`.
 */
export type LanguageModelV1StreamPart =
  | { readonly type: 'response_metadata'; readonly id?: string | undefined; readonly modelId?: string | undefined }
  | { readonly type: 'text_delta'; readonly delta: string }
  | { readonly type: 'reasoning_delta'; readonly delta: string; readonly signature?: string | undefined }
  | { readonly type: 'refusal_delta'; readonly delta: string }
  | {
      readonly type: 'tool_call_start';
      readonly id: string;
      readonly name: string;
      readonly extraContent?: JsonValue | undefined;
    }
  | { readonly type: 'tool_call_delta'; readonly id: string; readonly argumentsDelta: string }
  | { readonly type: 'tool_call_end'; readonly id: string; readonly call?: LanguageModelV1ToolCall | undefined }
  | {
      readonly type: 'finish';
      readonly finishReason: LanguageModelV1FinishReason;
      readonly rawFinishReason?: string | undefined;
      readonly usage: LanguageModelV1Usage;
      /** Every choice by `index`, when the provider returned more than one; absent otherwise. */
      readonly choices?: readonly LanguageModelV1Choice[] | undefined;
      /** The final raw body or event, when the adapter keeps one. */
      readonly body?: unknown;
    }
  | { readonly type: 'error'; readonly error: unknown };
