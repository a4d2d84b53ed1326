/** What a secret is replaced with in error messages and bodies. */
export const REDACTED = '[redacted]';

/** One secret, or every secret of a request (see {@link requestSecrets}). */
export type Secrets = string | readonly string[] | undefined;

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`, longest first (so a secret
 * that contains another is replaced whole). Secrets shorter than four characters are left alone
 * (they would match ordinary words), and so is `undefined` text.
 */
export function redactSecret<T extends string | undefined>(text: T, secrets: Secrets): T {
  if (text === undefined || secrets === undefined) return text;
  const list = typeof secrets === 'string' ? [secrets] : [...secrets].sort((a, b) => b.length - a.length);
  let out: string = text;
  for (const secret of list) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out as T;
}

/** The shortest piece of a header value taken as a secret on its own (shorter pieces are words). */
const MIN_PIECE = 8;

/**
 * Every secret a request carries, for {@link redactSecret}: the API key; every value of the
 * `headers` the caller gave (`x-api-key`, `Authorization`, `Cookie`, custom headers: any may be a
 * credential), whole and split into its pieces of at least 8 characters (the token of `Bearer
 * <token>`, each value of `a=<v>; b=<w>`); the user name and password of a base URL (as written
 * and decoded).
 */
export function requestSecrets(request: {
  readonly apiKey?: string | undefined;
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
  readonly baseURL?: string | URL | undefined;
}): string[] {
  const secrets = new Set<string>();
  if (request.apiKey !== undefined && request.apiKey !== '') secrets.add(request.apiKey);
  for (const value of Object.values(request.headers ?? {})) {
    if (typeof value !== 'string') continue;
    const whole = value.trim();
    if (whole.length >= 4) secrets.add(whole);
    for (const piece of whole.split(/[\s,;=:]+/)) if (piece.length >= MIN_PIECE) secrets.add(piece);
  }
  for (const part of urlCredentials(request.baseURL)) secrets.add(part);
  return [...secrets];
}

/** The user name and password of a URL, as written and decoded (none for a URL without them). */
export function urlCredentials(url: string | URL | undefined): string[] {
  if (url === undefined) return [];
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const part of [parsed.username, parsed.password]) {
    if (part === '') continue;
    out.push(part);
    try {
      const decoded = decodeURIComponent(part);
      if (decoded !== part) out.push(decoded);
    } catch {
      // a malformed escape: the raw form is the one that can appear
    }
  }
  return out;
}
