import type { AgentHarness, AgentMiddleware, AgentRun, InvokeOptions } from '@tiny/harness';
import type { AnswerCoercion } from '@tiny/llm';
import { InvalidInputError } from '@tiny/tools';
import { OutputLimitError } from '../errors/output-limit-error.js';
import { OutputRefusedError } from '../errors/output-refused-error.js';
import { SchemaNameCollisionError } from '../errors/schema-name-collision-error.js';
import { StructuredOutputError } from '../errors/structured-output-error.js';
import type { ResponseFormat } from '../format/response-format.js';
import { type EndStrategy, StructuredOutputErrorPolicy } from '../policy/error-policy.js';
import { createTextOutputMiddleware } from '../strategy/create-text-output-middleware.js';
import { createToolOutputMiddleware } from '../strategy/create-tool-output-middleware.js';
import type { FallbackNotice } from '../strategy/fallback-notice.js';
import { createOutputPlan, type OutputPlan } from '../strategy/output-plan.js';
import { OutputSession, type OutputValidator } from '../strategy/output-session.js';
import { strategyChain } from '../strategy/select-strategy.js';
import { isResponseFormatRejection } from './is-response-format-rejection.js';
import type { StructuredFallback, StructuredRun } from './structured-attempt.js';

/** Options of `invokeStructured` and `streamStructured`: the harness's run options plus the output policy. */
export interface StructuredOptions<TOutput> extends InvokeOptions {
  /** What a failed attempt does; default `retryWithDefaultMessage()`. */
  readonly errorPolicy?: StructuredOutputErrorPolicy | undefined;
  /** Retries after the first attempt (each one a model call counted against `maxModelCalls`): an integer ≥ 0 (`InvalidInputError` otherwise); default 1. */
  readonly maxRetries?: number | undefined;
  /** Tool strategy: the output tool and real tools called in one turn; default `graceful`. */
  readonly endStrategy?: EndStrategy | undefined;
  /** Tool strategy: `first` (default) takes the first output call; `error` makes several a `multiple` failure. */
  readonly multipleOutputs?: 'first' | 'error' | undefined;
  /** Checks the parsed value beyond its schema; throw `ModelRetry` to ask for another attempt. */
  readonly validate?: OutputValidator<TOutput> | undefined;
  /** Return the raw assistant message on the result; default true. */
  readonly includeRaw?: boolean | undefined;
  /**
   * Provider and prompted strategies: before asking the model again, try to recover a failed text
   * answer with `parseWithSchema` (candidates, lenient strings where the schema says string,
   * coercion by the schema, a cut answer closed), validated like any answer; the repairs are on
   * `validation.repairs` and the `structured_output` event. Never applied to tool arguments.
   * Default true.
   */
  readonly schemaRecovery?: boolean | undefined;
  /**
   * Cross-type coercion during `schemaRecovery`: `'off'` (default) treats a value of another type
   * than the schema asks (`"36"` for an integer, `123` for a string, one object for an array) as a
   * validation failure, retried within `maxRetries` like any other; `'lenient'` converts it and
   * lists the change (`coerced_to_number at /age`). `InvalidInputError` for any other value.
   */
  readonly coerce?: AnswerCoercion | undefined;
}

/** Runs one strategy's attempt: `invoke` or a streamed run. @internal */
export type RunOnce = (options: InvokeOptions, plan: OutputPlan) => Promise<AgentRun>;

/**
 * The driver shared by `invokeStructured` and `streamStructured`: picks the strategy chain, runs
 * the harness with the strategy's middleware, falls back on a rejected response format (auto
 * only, once per step, with an `output_fallback` event on the next run), and turns the session
 * into a `StructuredRun` or a typed error.
 * @internal
 */
export async function runStructured<TOutput>(
  harness: AgentHarness,
  format: ResponseFormat<TOutput>,
  options: StructuredOptions<TOutput>,
  runOnce: RunOnce,
): Promise<StructuredRun<TOutput>> {
  const {
    errorPolicy,
    maxRetries,
    endStrategy,
    multipleOutputs,
    validate,
    includeRaw,
    schemaRecovery,
    coerce,
    ...invokeOptions
  } = options;
  if (coerce !== undefined && coerce !== 'off' && coerce !== 'lenient') {
    throw new InvalidInputError({
      entryPoint: 'invokeStructured',
      reason: `\`coerce\` must be 'off' or 'lenient', got ${String(coerce)}`,
    });
  }
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw new InvalidInputError({
      entryPoint: 'invokeStructured',
      reason: `\`maxRetries\` must be an integer at least 0, got ${String(maxRetries)}`,
    });
  }
  const profile = harness.model.profile;
  const chain = strategyChain(format.kind, profile);
  const fallbacks: StructuredFallback[] = [];
  const notices: FallbackNotice[] = [];
  for (let index = 0; ; index += 1) {
    const strategy = chain[index] as OutputPlan['strategy'];
    const plan = createOutputPlan(format as ResponseFormat<unknown>, strategy, profile);
    if (strategy === 'tool') {
      for (const target of plan.targets) {
        if (harness.registry.has(target.toolName)) {
          throw new SchemaNameCollisionError({ schemaName: plan.schemaName, toolName: target.toolName });
        }
      }
    }
    const session = new OutputSession(plan, {
      policy: errorPolicy ?? StructuredOutputErrorPolicy.retryWithDefaultMessage(),
      maxRetries: maxRetries ?? 1,
      validate: validate as OutputValidator<unknown> | undefined,
      schemaRecovery: schemaRecovery ?? true,
      coerce: coerce ?? 'off',
    });
    const middleware: AgentMiddleware =
      strategy === 'tool'
        ? createToolOutputMiddleware(
            session,
            { endStrategy: endStrategy ?? 'graceful', multipleOutputs: multipleOutputs ?? 'first' },
            notices,
          )
        : createTextOutputMiddleware(session, notices);
    let run: AgentRun;
    try {
      run = await runOnce({ ...invokeOptions, middleware: [...(invokeOptions.middleware ?? []), middleware] }, plan);
    } catch (error) {
      const next = chain[index + 1];
      if (next === undefined || !isResponseFormatRejection(error)) throw error;
      const fallback: StructuredFallback = { from: strategy, to: next, reason: error.message };
      fallbacks.push(fallback);
      notices.push({ type: 'output_fallback', schemaName: plan.schemaName, ...fallback });
      continue;
    }
    return finishStructured(run, session, fallbacks, includeRaw ?? true) as StructuredRun<TOutput>;
  }
}

function finishStructured(
  run: AgentRun,
  session: OutputSession,
  fallbacks: readonly StructuredFallback[],
  includeRaw: boolean,
): StructuredRun<unknown> {
  const { plan, result, terminal, attempts } = session;
  if (result !== undefined) {
    const validation = {
      schemaName: plan.schemaName,
      strategy: plan.strategy,
      repair: result.repair,
      repairs: result.repairs,
      attempts: attempts.length + 1,
      failures: [...attempts],
      ...(result.variant === undefined ? {} : { variant: result.variant }),
      strict: plan.strict,
      fallbacks,
    };
    return includeRaw
      ? { parsed: result.value, raw: result.raw, validation, run }
      : ({ parsed: result.value, validation, run } as unknown as StructuredRun<unknown>);
  }
  if (terminal?.kind === 'output_limit') throw new OutputLimitError({ schemaName: plan.schemaName, attempts, run });
  if (terminal?.kind === 'refused') {
    throw new OutputRefusedError({ schemaName: plan.schemaName, refusal: terminal.refusal ?? '', attempts, run });
  }
  if (terminal !== undefined) {
    throw new StructuredOutputError({ schemaName: plan.schemaName, attempts, run, cause: terminal.cause });
  }
  throw new StructuredOutputError({
    schemaName: plan.schemaName,
    attempts,
    run,
    message: `the run ended (outcome \`${run.outcome}\`) before a structured output for \`${plan.schemaName}\` was recorded`,
  });
}
