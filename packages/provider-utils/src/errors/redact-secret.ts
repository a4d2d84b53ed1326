import { SECRET_NAME } from './secret-name.js';

/** What a secret is replaced with in error messages and bodies. */
export const REDACTED = '[redacted]';

/** One secret, or every secret of a request (see {@link requestSecrets}). */
export type Secrets = string | readonly string[] | undefined;

/** A hex digit of either case, as a regex class (`a` → `[aA]`). */
function hexClass(digit: string): string {
  return /[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit;
}

/**
 * A pattern matching `secret` with any of its characters written as a JSON `\uXXXX` escape (hex in
 * either case), a JSON `\/`, or a URL `%XX` escape: the forms a server's JSON or a URL can spell a
 * secret in without holding it literally.
 */
function escapedForms(secret: string): RegExp {
  let source = '';
  for (let index = 0; index < secret.length; index += 1) {
    const unit = secret.charCodeAt(index);
    const hex = unit.toString(16).padStart(4, '0');
    const forms = [secret[index]?.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&') ?? ''];
    forms.push(`\\\\u${[...hex].map(hexClass).join('')}`);
    if (unit === 0x2f) forms.push('\\\\/');
    if (unit < 0x80) forms.push(`%${[...hex.slice(2)].map(hexClass).join('')}`);
    source += `(?:${forms.join('|')})`;
  }
  return new RegExp(source, 'g');
}

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`, longest first (so a secret
 * that contains another is replaced whole), also where the text spells it with escapes: any of
 * its characters as a JSON `\uXXXX` (or `\/`) or a URL `%XX` escape. Secrets shorter than four
 * characters are left alone (they would match ordinary words), and so is `undefined` text.
 */
export function redactSecret<T extends string | undefined>(text: T, secrets: Secrets): T {
  if (text === undefined || secrets === undefined) return text;
  const list = typeof secrets === 'string' ? [secrets] : [...secrets].sort((a, b) => b.length - a.length);
  const escaped = text.includes('\\') || text.includes('%');
  let out: string = text;
  for (const secret of list) {
    if (secret.length < 4) continue;
    out = out.split(secret).join(REDACTED);
    if (escaped) out = out.replace(escapedForms(secret), REDACTED);
  }
  return out as T;
}

/** How deep {@link redactDeep} walks; deeper values are replaced with `[redacted]` whole. */
const MAX_REDACT_DEPTH = 64;

/**
 * A copy of a JSON-like value (an error's `details`, a parsed body) with every string in it, keys
 * included, passed through {@link redactSecret}. Values nested deeper than 64 levels are replaced
 * with `[redacted]` (a body that deep is no detail anyone reads). Never throws for JSON values.
 */
export function redactDeep<T>(value: T, secrets: Secrets, depth = 0): T {
  if (typeof value === 'string') return redactSecret(value, secrets) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_REDACT_DEPTH) return REDACTED as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    Object.defineProperty(out, redactSecret(key, secrets), {
      value: redactDeep(item, secrets, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
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
  for (const value of Object.values(request.headers ?? {})) if (typeof value === 'string') addValue(secrets, value);
  for (const part of urlCredentials(request.baseURL)) secrets.add(part);
  return [...secrets];
}

/** Adds a credential's value whole and split into its pieces of at least {@link MIN_PIECE} characters. */
function addValue(secrets: Set<string>, value: string): void {
  const whole = value.trim();
  if (whole.length >= 4) secrets.add(whole);
  for (const piece of whole.split(/[\s,;=:]+/)) if (piece.length >= MIN_PIECE) secrets.add(piece);
}

/** How deep {@link optionSecrets} reads provider options, and how many values it reads at most. */
const MAX_OPTION_DEPTH = 32;
const MAX_OPTION_VALUES = 10_000;

/**
 * The credential-like values in provider options (a request's or a model's), for
 * {@link redactSecret}: every string under a key whose name looks like a key, token, secret,
 * signature or password (`api_key`, `accessToken`, `authorization`, ...; the names `urlForSettings`
 * drops from a query), at any depth and in any array or object below such a key, whole and split
 * into its pieces of at least 8 characters. Options may be sent in a body (`extraBody`) and a server
 * may echo them in an error. Reads at most 32 levels and 10,000 values; never throws.
 */
export function optionSecrets(options: unknown): string[] {
  const secrets = new Set<string>();
  let budget = MAX_OPTION_VALUES;
  const walk = (value: unknown, secret: boolean, depth: number): void => {
    if (budget <= 0) return;
    budget -= 1;
    if (typeof value === 'string') {
      if (secret) addValue(secrets, value);
      return;
    }
    if (typeof value !== 'object' || value === null || depth >= MAX_OPTION_DEPTH) return;
    try {
      if (Array.isArray(value)) {
        for (const item of value) walk(item, secret, depth + 1);
        return;
      }
      for (const key of Object.keys(value)) {
        walk((value as Record<string, unknown>)[key], secret || SECRET_NAME.test(key), depth + 1);
      }
    } catch {
      // a getter that throws or a proxy: what was read so far is kept
    }
  };
  walk(options, false, 0);
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
