import type { StructuredAttempt } from '../run/structured-attempt.js';

/** The retry message template; `{error}` is replaced with the attempt's error. */
export const DEFAULT_RETRY_TEMPLATE = '{error}\n\nFix the errors and try again.';

/**
 * What to do when an attempt yields no valid output.
 * - `return_error`: fail at once with `StructuredOutputError` (no retry).
 * - `retry_with_default_message`: retry with {@link DEFAULT_RETRY_TEMPLATE}.
 * - `retry_with_message`: retry with `message` (`{error}` in it is replaced with the error).
 * - `retry_with_formatter`: retry with the text `format` returns for the failed attempt.
 *
 * Retries are user turns, count against `maxModelCalls`, and are bounded by `maxRetries`.
 */
export type StructuredOutputErrorPolicy =
  | { readonly type: 'return_error' }
  | { readonly type: 'retry_with_default_message' }
  | { readonly type: 'retry_with_message'; readonly message: string }
  | {
      readonly type: 'retry_with_formatter';
      /** Writes the retry message for a failed attempt. */
      readonly format: (attempt: StructuredAttempt) => string;
    };

/** Factories for {@link StructuredOutputErrorPolicy}. */
export const StructuredOutputErrorPolicy = {
  /** Fail at once with `StructuredOutputError`, without a retry. */
  returnError(): StructuredOutputErrorPolicy {
    return { type: 'return_error' };
  },
  /** Retry with {@link DEFAULT_RETRY_TEMPLATE} (the attempt's error, then "Fix the errors and try again."). */
  retryWithDefaultMessage(): StructuredOutputErrorPolicy {
    return { type: 'retry_with_default_message' };
  },
  /** Retry with `message` as the user turn; `{error}` in it is replaced with the attempt's error. */
  retryWithMessage(message: string): StructuredOutputErrorPolicy {
    return { type: 'retry_with_message', message };
  },
  /** Retry with the text `format` returns for the failed attempt. */
  retryWithFormatter(format: (attempt: StructuredAttempt) => string): StructuredOutputErrorPolicy {
    return { type: 'retry_with_formatter', format };
  },
};

/** The retry prompt for a failed attempt, or `undefined` when the policy does not retry. @internal */
export function retryMessage(policy: StructuredOutputErrorPolicy, attempt: StructuredAttempt): string | undefined {
  switch (policy.type) {
    case 'return_error':
      return undefined;
    case 'retry_with_default_message':
      return DEFAULT_RETRY_TEMPLATE.replaceAll('{error}', attempt.error);
    case 'retry_with_message':
      return policy.message.replaceAll('{error}', attempt.error);
    case 'retry_with_formatter':
      return policy.format(attempt);
  }
}

/**
 * Which output wins when the tool strategy's output tool and real tools are called in one turn.
 * - `graceful` (default): run the real tools, then end with the recorded output (no extra model call).
 * - `early`: end now; the real calls are closed with a "run stopped before this tool call was executed" result.
 * - `exhaustive`: ignore the output call this turn, run the tools and continue until a turn's
 *   output call has no companions.
 */
export type EndStrategy = 'graceful' | 'early' | 'exhaustive';
