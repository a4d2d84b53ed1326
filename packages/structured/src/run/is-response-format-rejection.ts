import { ModelCallError } from '@tiny/llm';

const namesFormat = /response_format|json_schema|\bschema\b/i;

/**
 * True when the provider refused the request's output shape: a `ModelCallError` with HTTP 400
 * whose message or body names `response_format`, `json_schema` or a schema. Auto formats fall
 * back to the next strategy on it.
 */
export function isResponseFormatRejection(error: unknown): error is ModelCallError {
  if (!ModelCallError.isInstance(error) || error.statusCode !== 400) return false;
  return namesFormat.test(`${error.message}\n${error.responseBody ?? ''}`);
}
