import { HttpFailure } from '../errors/http-failure.js';
import { BoundedReader } from '../limits/bounded-reader.js';
import { type HttpLimits, resolveHttpLimits } from '../limits/http-limits.js';

/**
 * Reads a response body as UTF-8 text within `limits` (see {@link HttpLimits}): a body longer
 * than `maxResponseBytes` (by its `content-length`, checked before reading, or by the bytes read),
 * or one that stalls past `idleTimeoutMs` or `totalTimeoutMs`, is cancelled.
 *
 * With `truncate`, a body past `maxResponseBytes` is not a failure: its first `maxResponseBytes`
 * bytes are returned (for error bodies, which are only kept for messages and logs).
 *
 * @throws {HttpFailure} of kind `response_too_large` or `response_timeout` past a bound.
 * @throws the read failure (a dropped connection, an abort) as it came.
 */
export async function readBodyText(
  response: Response,
  limits?: HttpLimits | undefined,
  options?: { readonly truncate?: boolean | undefined },
): Promise<string> {
  const resolved = resolveHttpLimits(limits);
  const truncate = options?.truncate === true;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!truncate && Number.isFinite(declared) && declared > resolved.maxResponseBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new HttpFailure({
      kind: 'response_too_large',
      retryable: false,
      limit: resolved.maxResponseBytes,
      message: `announced a body of ${declared} bytes, more than ${resolved.maxResponseBytes} (limits.maxResponseBytes)`,
    });
  }
  if (response.body === null) return '';
  const reader = new BoundedReader(
    response.body,
    truncate ? { ...resolved, maxResponseBytes: Infinity } : resolved,
    'body',
  );
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let finished = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      // `'grace'` never comes: this reader is never settled
      if (chunk === undefined || chunk === 'grace') break;
      reader.progress();
      if (truncate && bytes + chunk.byteLength >= resolved.maxResponseBytes) {
        text += decoder.decode(chunk.subarray(0, resolved.maxResponseBytes - bytes));
        return text;
      }
      bytes += chunk.byteLength;
      text += decoder.decode(chunk, { stream: true });
    }
    finished = true;
    return text + decoder.decode();
  } finally {
    if (finished) reader.release();
    else await reader.cancel();
  }
}
