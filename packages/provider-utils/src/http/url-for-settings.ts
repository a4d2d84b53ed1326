import { isSecretName } from '../errors/secret-name.js';

/**
 * The request URL as a model's `wireSettings()` reports it: where requests go (host, path, the
 * API version in a path or query), without anything that may be a credential: user name and
 * password are dropped, and so is every query parameter whose name looks like a key, token,
 * secret, signature or password (`key`, `api_key`, `access_token`, `sig`, ...). The fragment is
 * dropped (never sent). Both `&` and `;` separate query parameters. Path segments are kept as
 * they are: a secret inside the path (`/key=S/`) is not detected (the value is only hashed into
 * the prefix tracker's settings, never shown or logged). A string that is no URL is returned
 * without its query.
 */
export function urlForSettings(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const query = url.indexOf('?');
    return query === -1 ? url : url.slice(0, query);
  }
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  // split by hand: URLSearchParams reads only `&`, so `a=1;key=S` would be one parameter `a`
  const kept = parsed.search
    .slice(1)
    .split(/[&;]/)
    .filter((pair) => pair !== '' && !isSecretName(safeDecode(pair.split('=', 1)[0] as string)));
  parsed.search = kept.length === 0 ? '' : `?${kept.join('&')}`;
  return parsed.toString();
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
