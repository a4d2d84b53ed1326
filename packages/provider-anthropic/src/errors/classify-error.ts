import { isRetryableStatus } from '@tiny/llm';
import type { AnthropicErrorKind } from './anthropic-call-error.js';

const byType: Readonly<Record<string, AnthropicErrorKind>> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limited',
  api_error: 'api_error',
  overloaded_error: 'overloaded',
};

const byStatus: Readonly<Record<number, AnthropicErrorKind>> = {
  400: 'invalid_request',
  401: 'authentication',
  403: 'permission',
  404: 'not_found',
  413: 'request_too_large',
  429: 'rate_limited',
  500: 'api_error',
  529: 'overloaded',
};

const retryableKinds: ReadonlySet<AnthropicErrorKind> = new Set([
  'rate_limited',
  'api_error',
  'overloaded',
  'transport',
  'incomplete_stream',
]);

/**
 * The kind of an error from its `error.type` (which wins) or its HTTP status, and whether the same
 * request may succeed later.
 * @internal
 */
export function classifyError(
  errorType: string | undefined,
  status: number | undefined,
): { kind: AnthropicErrorKind; retryable: boolean } {
  const kind =
    (errorType === undefined ? undefined : byType[errorType]) ??
    (status === undefined ? undefined : byStatus[status]) ??
    'other';
  const retryable = retryableKinds.has(kind) || (kind === 'other' && status !== undefined && isRetryableStatus(status));
  return { kind, retryable };
}
