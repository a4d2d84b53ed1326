import { InvalidInputError } from '@tiny/llm';
import { redactSecret, urlCredentials } from '../errors/redact-secret.js';

/**
 * The base URL of an adapter as an absolute `http:`/`https:` URL, or an `InvalidInputError` from
 * `entryPoint` saying what is wrong with it (never a late `fetch` failure on the first request).
 * `example` is shown in the message for a missing URL; `path` names what the adapter appends
 * (`/messages`), for the query-or-fragment message.
 * A URL with credentials (`https://user:pass@host`) is refused: `fetch` cannot send one, and the
 * credentials belong in `headers`; no message ever shows them (they read `[redacted]`).
 * @throws {InvalidInputError} for a missing, relative, non-http(s) URL, one with a query or fragment,
 *   or one with a user name or password.
 */
export function parseBaseURL(
  baseURL: unknown,
  entryPoint: string,
  options: { readonly example: string; readonly path: string },
): URL {
  const fail = (reason: string): never => {
    throw new InvalidInputError({ entryPoint, reason });
  };
  if (typeof baseURL !== 'string' || baseURL.trim() === '') {
    return fail(
      `baseURL must be an absolute http(s) URL such as "${options.example}", got ${JSON.stringify(baseURL) ?? String(baseURL)}`,
    );
  }
  // The URL as messages show it: its credentials, if any, read `[redacted]`.
  const shown = redactSecret(baseURL, urlCredentials(baseURL));
  let parsed: URL;
  try {
    parsed = new URL(baseURL);
  } catch {
    return fail(
      `baseURL must be an absolute http(s) URL such as "https://${shown.replace(/^\/+/, '')}", got "${shown}"`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return fail(`baseURL must use http: or https:, got "${parsed.protocol}" in "${shown}"`);
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    return fail(`baseURL must not carry a query or fragment (the adapter appends ${options.path}), got "${shown}"`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return fail(
      `baseURL must not carry credentials (user:password@, which fetch cannot send): give them in \`headers\` (Authorization) or as \`apiKey\`, got "${shown}"`,
    );
  }
  return parsed;
}
