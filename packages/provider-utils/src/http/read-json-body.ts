import { HttpFailure } from '../errors/http-failure.js';
import type { HttpLimits } from '../limits/http-limits.js';
import { readBodyText } from './read-body-text.js';

/** The errors an adapter builds for each way reading a JSON body can fail. */
export interface JsonBodyErrors {
  /** A bound of `limits` was passed (`HttpFailure`). */
  refused(failure: HttpFailure): unknown;
  /** The body could not be read: the connection dropped while it was being sent. */
  lost(what: string, cause: unknown): unknown;
  /** The body is not JSON. */
  notJson(what: string, cause: unknown): unknown;
}

/**
 * Reads a successful answer's body as JSON within `limits`, the same way for every adapter:
 * an abort rethrows the signal's reason; a passed bound throws `errors.refused`; a read failure
 * `errors.lost('lost the connection while sending the body', cause)`; text that is not JSON
 * `errors.notJson('sent a body that is not JSON', cause)`.
 */
export async function readJsonBody(
  response: Response,
  options: { readonly limits?: HttpLimits | undefined; readonly signal?: AbortSignal | undefined },
  errors: JsonBodyErrors,
): Promise<{ raw: string; json: unknown }> {
  let raw: string;
  try {
    raw = await readBodyText(response, options.limits);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (HttpFailure.isInstance(error)) throw errors.refused(error);
    throw errors.lost('lost the connection while sending the body', error);
  }
  try {
    return { raw, json: JSON.parse(raw) as unknown };
  } catch (error) {
    throw errors.notJson('sent a body that is not JSON', error);
  }
}
