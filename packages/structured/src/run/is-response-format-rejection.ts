import { ModelCallError } from '@tiny/llm';

/**
 * True when the provider refused the request's output shape: a `ModelCallError` of the shared
 * kind `response_format_unsupported` (every adapter reads it the same way, from the status, the
 * field blamed and the message; see `ModelCallErrorKind`). Auto formats fall back to the next
 * strategy on it.
 */
export function isResponseFormatRejection(error: unknown): error is ModelCallError {
  return ModelCallError.isInstance(error) && error.kind === 'response_format_unsupported';
}
