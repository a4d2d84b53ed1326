import { describe, expect, it } from 'vitest';
import { errorFromEvent, errorFromResponse } from './create-call-error.js';

// google.rpc Status bodies as the Gemini API and Vertex AI send them (the API's error reference:
// code, message, status, details with BadRequest, RetryInfo, ErrorInfo).
const rpc = (code: number, status: string, message: string, details?: unknown[]) =>
  new Response(JSON.stringify({ error: { code, message, status, ...(details === undefined ? {} : { details }) } }), {
    status: code,
    headers: { 'content-type': 'application/json' },
  });
const context = { provider: 'google', secret: ['AIza-secret-key'] };

describe('google.rpc errors', () => {
  it.each([
    [400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', 'invalid_request', false],
    [400, 'FAILED_PRECONDITION', 'User location is not supported for the API use.', 'invalid_request', false],
    [401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'auth', false],
    [403, 'PERMISSION_DENIED', 'Permission denied on resource project tiny.', 'permission', false],
    [404, 'NOT_FOUND', 'models/gemini-9 is not found for API version v1beta.', 'not_found', false],
    [429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', 'rate_limit', true],
    [500, 'INTERNAL', 'An internal error has occurred.', 'server_error', true],
    [503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.', 'server_error', true],
    [504, 'DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.', 'timeout', true],
  ] as const)('%i %s is %s', async (code, status, message, kind, retryable) => {
    const error = await errorFromResponse(rpc(code, status, message), context);
    expect(error).toMatchObject({ kind, isRetryable: retryable, status, statusCode: code, providerMessage: message });
  });

  it('keeps INVALID_ARGUMENT details, and reads a prompt past the window as a context overflow', async () => {
    const details = [
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [
          { field: 'contents[0].parts[0]', description: 'required oneof field data must have one initialized field' },
        ],
      },
    ];
    const invalid = await errorFromResponse(
      rpc(400, 'INVALID_ARGUMENT', 'Invalid value at contents[0].', details),
      context,
    );
    expect(invalid.details).toEqual(details);
    const overflow = await errorFromResponse(
      rpc(
        400,
        'INVALID_ARGUMENT',
        'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      ),
      context,
    );
    expect(overflow).toMatchObject({ kind: 'context_overflow', isRetryable: false });
  });

  it('waits for RetryInfo, capped at an hour, and never shows the key a server echoed', async () => {
    const limited = await errorFromResponse(
      rpc(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for key AIza-secret-key.', [
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' },
      ]),
      context,
    );
    expect(limited.retryAfterMs).toBe(60 * 60 * 1000);
    expect(JSON.stringify({ ...limited, message: limited.message })).not.toContain('AIza-secret-key');
  });

  it('an in-stream UNAVAILABLE without a code is a retryable server error, PERMISSION_DENIED is not retryable', () => {
    const unavailable = errorFromEvent({ error: { message: 'try later', status: 'UNAVAILABLE' } }, '', context);
    expect(unavailable).toMatchObject({ kind: 'server_error', isRetryable: true });
    const denied = errorFromEvent({ error: { message: 'no', status: 'PERMISSION_DENIED' } }, '', context);
    expect(denied).toMatchObject({ kind: 'permission', isRetryable: false });
  });
});
