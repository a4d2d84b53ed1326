import { InvalidInputError } from '@tiny/llm';
import { REDACTED, redactSecret, urlCredentials } from '../errors/redact-secret.js';
import { isSecretName } from '../errors/secret-name.js';

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
    const given = baseURL instanceof URL ? `a URL object ("${shownURL(baseURL.href)}")` : describeValue(baseURL);
    return fail(`baseURL must be an absolute http(s) URL string such as "${options.example}", got ${given}`);
  }
  // The URL as messages show it: its credentials and credential-named parameters read `[redacted]`.
  const shown = shownURL(baseURL);
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

/**
 * A URL as a message may show it, even one that does not parse: everything between the scheme (or
 * the start) and the last `@` before the path (a user name and password, whatever they hold) and the
 * value of every query or fragment parameter named like a credential (`key`, `api-key`, `token`,
 * ...) read `[redacted]`; the credentials of a parsable URL are redacted wherever they recur.
 */
function shownURL(url: string): string {
  let shown = redactSecret(url, urlCredentials(url));
  const at = shown.lastIndexOf('@');
  if (at >= 0) {
    const start = /^\s*[a-z][\w+.-]*:\/*/i.exec(shown)?.[0].length ?? 0;
    if (at >= start) shown = `${shown.slice(0, start)}${REDACTED}${shown.slice(at)}`;
  }
  return shown.replace(/([?#&;])([^=&;#]*)=([^&;#]*)/g, (pair, separator: string, name: string) =>
    isSecretName(decodeName(name)) ? `${separator}${name}=${REDACTED}` : pair,
  );
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** A value that is no URL string, for a message: its type, and a string's or number's text cut short. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
