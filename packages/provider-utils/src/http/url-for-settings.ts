/** Query parameter names that may carry a credential (`key`, `api_key`, `token`, `sig`, ...). */
const SECRET_PARAM = /key|secret|token|sig|password|auth|credential/i;

/**
 * The request URL as a model's `wireSettings()` reports it: where requests go (host, path, the
 * API version in a path or query), without anything that may be a credential: user name and
 * password are dropped, and so is every query parameter whose name looks like a key, token,
 * secret, signature or password (`key`, `api_key`, `access_token`, `sig`, ...). The fragment is
 * dropped (never sent). A string that is no URL is returned without its query.
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
  for (const name of [...parsed.searchParams.keys()]) if (SECRET_PARAM.test(name)) parsed.searchParams.delete(name);
  return parsed.toString();
}
