import { HttpFailure } from '../errors/http-failure.js';
import { type PostJsonOptions, postJson } from './post-json.js';

/**
 * `postJson` with the plumbing's refusals converted by the adapter, so every adapter sends the
 * same way: a call that got no response becomes `errors.noResponse`, a refused redirect or a
 * passed time bound (`HttpFailure`) becomes `errors.refused`; an abort rethrows the signal's
 * reason. Any HTTP status is returned as a `Response` to classify.
 */
export async function sendJson(
  options: PostJsonOptions,
  errors: { noResponse(message: string, cause: unknown): Error; refused(failure: HttpFailure): unknown },
): Promise<Response> {
  try {
    return await postJson(options, errors.noResponse);
  } catch (error) {
    if (HttpFailure.isInstance(error)) throw errors.refused(error);
    throw error;
  }
}
