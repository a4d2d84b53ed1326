import type { MiddlewareContext } from '@tiny/harness';
import type { AnswerCoercion, AssistantMessage, LanguageModelV1Response, Message } from '@tiny/llm';
import { type JsonValue, ModelRetry } from '@tiny/tools';
import { retryMessage, type StructuredOutputErrorPolicy } from '../policy/error-policy.js';
import type { StructuredAttempt, StructuredErrorKind, StructuredRepair } from '../run/structured-attempt.js';
import type { Extraction } from './extract-output.js';
import type { OutputPlan } from './output-plan.js';

/** Details an output validator receives besides the value. */
export interface OutputValidatorContext {
  /** 1-based attempt number. */
  readonly attempt: number;
  readonly schemaName: string;
  readonly strategy: OutputPlan['strategy'];
  /** The assistant message the value was read from. */
  readonly raw: AssistantMessage;
}

/**
 * Checks a parsed value beyond its schema. Return nothing to accept it, or a replacement value;
 * throw `ModelRetry(advice)` to ask the model for another attempt (counted like any retry).
 * Anything else thrown ends the run with `StructuredOutputError` (its `cause`).
 */
export type OutputValidator<TOutput> = (
  value: TOutput,
  context: OutputValidatorContext,
) => ValidatorResult<TOutput> | Promise<ValidatorResult<TOutput>>;

// biome-ignore lint/suspicious/noConfusingVoidType: a validator that only checks (and throws) returns nothing.
type ValidatorResult<TOutput> = TOutput | undefined | void;

/** Settings shared by every strategy's middleware. @internal */
export interface SessionSettings {
  readonly policy: StructuredOutputErrorPolicy;
  readonly maxRetries: number;
  readonly validate: OutputValidator<unknown> | undefined;
  /** Text strategies try `parseWithSchema` on an answer that fails, before a retry. */
  readonly schemaRecovery: boolean;
  /** Cross-type coercion of that recovery: `off` leaves a wrong type to the retry budget. */
  readonly coerce: AnswerCoercion;
}

/** The recorded success. @internal */
export interface SessionResult {
  readonly value: unknown;
  readonly raw: AssistantMessage;
  readonly repair: StructuredRepair;
  readonly repairs: readonly string[];
  readonly variant: string | undefined;
}

/** A failed attempt: retry with this user turn, or stop. @internal */
export type FailureDecision = { readonly retry: true; readonly message: Message } | { readonly retry: false };

/** The last assistant message of the transcript, or one rebuilt from the response. */
export function rawMessage(context: MiddlewareContext, response: LanguageModelV1Response): AssistantMessage {
  const last = context.messages[context.messages.length - 1];
  if (last !== undefined && last.role === 'assistant') return last;
  return { role: 'assistant', content: response.content };
}

/**
 * The state of one structured run shared by the strategy middleware: attempts, the recorded
 * result or terminal failure, and the retry bookkeeping (the `output_retry` event and user turn).
 * @internal
 */
export class OutputSession {
  readonly attempts: StructuredAttempt[] = [];
  result: SessionResult | undefined;
  /** Set when the run must end without output (no retry left, or a fatal error). */
  terminal: StructuredAttempt | undefined;
  /** The model calls this session has seen (each answer is one attempt). */
  attemptNumber = 0;

  constructor(
    readonly plan: OutputPlan,
    readonly settings: SessionSettings,
  ) {}

  /** Starts an attempt (one per final answer or output call read). */
  nextAttempt(): number {
    this.attemptNumber += 1;
    return this.attemptNumber;
  }

  /**
   * Runs the output validator on a decoded value. Returns the extraction to record: the value
   * (possibly replaced), or a `validator` failure for `ModelRetry`; other errors become terminal.
   */
  async check(
    extraction: Extraction,
    raw: AssistantMessage,
    attempt: number,
  ): Promise<Extraction | { fatal: unknown }> {
    const validate = this.settings.validate;
    if (!extraction.ok || validate === undefined) return extraction;
    try {
      const replaced = await validate(extraction.value, {
        attempt,
        schemaName: this.plan.schemaName,
        strategy: this.plan.strategy,
        raw,
      });
      return replaced === undefined ? extraction : { ...extraction, value: replaced };
    } catch (error) {
      if (ModelRetry.isInstance(error)) return { ok: false, kind: 'validator', error: error.advice };
      return { fatal: error };
    }
  }

  /**
   * Records the value and emits a `custom` event `{ kind: 'structured_output', ... }` carrying the
   * raw assistant message (and, for a schema-guided recovery, `repairs`), so it is in the events
   * even when the caller leaves it out of the result.
   */
  succeed(extraction: Extraction & { ok: true }, raw: AssistantMessage, context: MiddlewareContext): void {
    this.result = {
      value: extraction.value,
      raw,
      repair: extraction.repair,
      repairs: extraction.repairs,
      variant: extraction.variant,
    };
    const payload = {
      kind: 'structured_output',
      schemaName: this.plan.schemaName,
      strategy: this.plan.strategy,
      repair: extraction.repair,
      ...(extraction.repairs.length === 0 ? {} : { repairs: [...extraction.repairs] }),
      ...(extraction.variant === undefined ? {} : { variant: extraction.variant }),
      raw,
    };
    context.emit({ type: 'custom', payload: payload as unknown as JsonValue });
  }

  /** Records a fatal validator error: the run ends with `StructuredOutputError` carrying it. */
  fatal(error: unknown, raw: AssistantMessage, attempt: number): void {
    const message = error instanceof Error ? error.message : String(error);
    const record: StructuredAttempt = {
      attempt,
      kind: 'validator',
      error: `The output validator failed: ${message}`,
      raw,
      strategy: this.plan.strategy,
      cause: error,
    };
    this.attempts.push(record);
    this.terminal = record;
  }

  /**
   * Records a failed attempt and decides: retry (emits `output_retry`, returns the user turn) while
   * the policy retries and `maxRetries` is not spent, else stop. `output_limit` and `refused`
   * never retry.
   */
  fail(
    extraction: Extraction & { ok: false },
    raw: AssistantMessage,
    attempt: number,
    context: MiddlewareContext,
  ): FailureDecision {
    const record: StructuredAttempt = {
      attempt,
      kind: extraction.kind,
      error: extraction.error,
      ...(extraction.issues === undefined ? {} : { issues: extraction.issues }),
      ...(extraction.refusal === undefined ? {} : { refusal: extraction.refusal }),
      raw,
      strategy: this.plan.strategy,
    };
    this.attempts.push(record);
    const retries = this.attempts.length - 1;
    const text =
      extraction.kind === 'output_limit' || extraction.kind === 'refused' || retries >= this.settings.maxRetries
        ? undefined
        : retryMessage(this.settings.policy, record);
    if (text === undefined) {
      this.terminal = record;
      return { retry: false };
    }
    context.emit({
      type: 'output_retry',
      schemaName: this.plan.schemaName,
      attempt,
      errorKind: eventKind(extraction.kind),
      error: extraction.error,
    });
    return { retry: true, message: { role: 'user', content: text } };
  }
}

function eventKind(kind: StructuredErrorKind): 'parse' | 'validation' | 'missing' | 'multiple' | 'validator' {
  return kind === 'output_limit' || kind === 'refused' ? 'missing' : kind;
}
