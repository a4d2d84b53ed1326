import type { AgentRun } from '@tiny/harness';
import type { AssistantMessage, LenientJsonRepair } from '@tiny/llm';
import type { ValidationIssue } from '@tiny/tools';
import type { StructuredStrategy } from '../format/response-format.js';

/**
 * How the value was read: a rung of `parseLenientJson` (`strict` when no repair was needed), or
 * `schema` when `parseWithSchema` recovered an answer the ladder could not (see
 * `ValidationRecord.repairs`).
 */
export type StructuredRepair = LenientJsonRepair | 'schema';

/**
 * Why an attempt produced no output.
 * - `parse`: the text (or the output tool's argument string) is not JSON, even after repair.
 * - `validation`: the value does not match the declared schema.
 * - `missing`: no output: an empty answer, or (tool strategy) no call to the output tool.
 * - `multiple`: several output-tool calls when `multipleOutputs` is `'error'`.
 * - `validator`: the output validator threw (`ModelRetry` retries; anything else ends the run).
 * - `output_limit`: empty output cut off at the output-token limit (never retried).
 * - `refused`: the model refused (the response carried a `refusal`; never retried).
 */
export type StructuredErrorKind =
  | 'parse'
  | 'validation'
  | 'missing'
  | 'multiple'
  | 'validator'
  | 'output_limit'
  | 'refused';

/** One failed attempt at structured output. */
export interface StructuredAttempt {
  /** 1-based. */
  readonly attempt: number;
  readonly kind: StructuredErrorKind;
  /** The error the model is shown on retry (before the policy's template is applied). */
  readonly error: string;
  /** Schema issues, for `validation`. */
  readonly issues?: readonly ValidationIssue[] | undefined;
  /** The assistant message of the attempt. */
  readonly raw: AssistantMessage;
  readonly strategy: StructuredStrategy;
  /** The error thrown by an output validator, for `validator`. */
  readonly cause?: unknown;
  /** The model's refusal, for `refused`. */
  readonly refusal?: string | undefined;
}

/** A strategy change after the provider rejected a request (see `ResponseFormat.auto`). */
export interface StructuredFallback {
  readonly from: StructuredStrategy;
  readonly to: StructuredStrategy;
  /** The provider's error message. */
  readonly reason: string;
}

/** How the structured value was obtained. */
export interface ValidationRecord {
  readonly schemaName: string;
  /** The strategy that produced the value (after any runtime fallback). */
  readonly strategy: StructuredStrategy;
  /**
   * The rung of `parseLenientJson` that read the value (`strict` when no repair was needed,
   * including tool arguments the provider decoded itself), or `schema` when the schema-guided
   * recovery read it. A `closed` value (or one whose `repairs` include `closed_truncated`) may be
   * missing data.
   */
  readonly repair: StructuredRepair;
  /**
   * For `repair: 'schema'`: every change the recovery made, in order (`coerced_to_number at /age`,
   * `matched_enum_case at /status`, ...); empty otherwise.
   */
  readonly repairs: readonly string[];
  /** Attempts made, the successful one included (1 when the first answer was valid). */
  readonly attempts: number;
  /** The failed attempts before the successful one. */
  readonly failures: readonly StructuredAttempt[];
  /** The union variant chosen, for schemas whose root is `anyOf`/`oneOf`. */
  readonly variant?: string | undefined;
  /** Whether strict decoding was used on the wire. */
  readonly strict: boolean;
  /** Runtime strategy fallbacks, in order (empty when none). */
  readonly fallbacks: readonly StructuredFallback[];
}

/** The result of `invokeStructured`: the parsed value, the raw assistant message and how it was obtained. */
export interface StructuredRun<TOutput> {
  /** The value, validated against the declared schema (after the output validator, if any). */
  readonly parsed: TOutput;
  /** The assistant message the value was read from. */
  readonly raw: AssistantMessage;
  readonly validation: ValidationRecord;
  /** The agent run (transcript, events, usage, model calls). */
  readonly run: AgentRun;
}

/** `invokeStructured` with `includeRaw: false`: the raw message is left out (it is still in the events and transcript). */
export type StructuredRunWithoutRaw<TOutput> = Omit<StructuredRun<TOutput>, 'raw'> & { readonly raw?: undefined };
