import { isSecretName } from './secret-name.js';

/** What a secret is replaced with in error messages and bodies. */
export const REDACTED = '[redacted]';

/** One secret, or every secret of a request (see {@link requestSecrets}). */
export type Secrets = string | readonly string[] | undefined;

/** A hex digit of either case, as a regex class (`a` → `[aA]`). */
function hexClass(digit: string): string {
  return /[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit;
}

/** `text` as a regex source matching it literally. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** `\uXXXX` for one UTF-16 unit, hex in either case, as a regex source. */
const unicodeEscape = (unit: number): string =>
  `\\\\u${[...unit.toString(16).padStart(4, '0')].map(hexClass).join('')}`;

/** JSON's short escapes (`\"`, `\\`, `\/`, `\n`, ...) by the character they stand for. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/**
 * A pattern matching `secret` in any case, with any of its characters written as a JSON escape
 * (`\uXXXX` with hex in either case, or a short one: `\"`, `\\`, `\/`, `\n`, ...), a URL `%XX`
 * escape (a non-ASCII character as its UTF-8 bytes) or a form's `+` for a space: the forms a
 * server's JSON, a URL or a form can spell a secret in without holding it literally.
 */
function secretPattern(secret: string): RegExp {
  let source = '';
  for (const char of secret) {
    const point = char.codePointAt(0) as number;
    const forms = [literal(char)];
    // JSON escapes each UTF-16 unit of a character outside the BMP on its own.
    let units = '';
    for (let index = 0; index < char.length; index += 1) units += unicodeEscape(char.charCodeAt(index));
    forms.push(units);
    const short = SHORT_ESCAPES[char];
    if (short !== undefined) forms.push(`\\\\${literal(short)}`);
    forms.push(
      [...new TextEncoder().encode(char)]
        .map((byte) => `%${[...byte.toString(16).padStart(2, '0')].map(hexClass).join('')}`)
        .join(''),
    );
    if (point === 0x20) forms.push('\\+');
    source += `(?:${forms.join('|')})`;
  }
  return new RegExp(source, 'gi');
}

/** Secrets longer than this are matched only as written, in any case (their escaped forms would make a huge pattern). */
const MAX_ESCAPED_SECRET = 1024;

/** Compiled escaped-form patterns by secret (a model's secrets recur in every error it builds); at most 256 kept. */
const patterns = new Map<string, RegExp | null>();

/** The pattern of a secret's escaped forms; `null` when it cannot be compiled. */
function patternOf(secret: string): RegExp | null {
  let pattern = patterns.get(secret);
  if (pattern === undefined) {
    try {
      pattern = secretPattern(secret);
    } catch {
      pattern = null;
    }
    if (patterns.size >= 256) patterns.clear();
    patterns.set(secret, pattern);
  }
  if (pattern !== null) pattern.lastIndex = 0;
  return pattern;
}

/** `text` with every occurrence of `secret`, in any case, replaced with `[redacted]` (no pattern: any length). */
function replaceAnyCase(text: string, secret: string): string {
  const lower = text.toLowerCase();
  const needle = secret.toLowerCase();
  // Lower-casing that changes lengths (`İ`) would shift positions: then as written only.
  if (lower.length !== text.length || needle.length !== secret.length) return text.split(secret).join(REDACTED);
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    out += text.slice(from, at) + REDACTED;
    from = at + needle.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`, longest first (so a secret
 * that contains another is replaced whole), in any case, also where the text spells it with
 * escapes: any of its characters as a JSON escape (`\uXXXX`, `\"`, `\\`, `\/`, `\n`, ...), a URL
 * `%XX` escape (UTF-8 bytes for a non-ASCII character) or a form's `+` for a space (escaped forms
 * of secrets up to 1,024 characters). Secrets shorter than four characters are left alone (they
 * would match ordinary words), and so is `undefined` text. Never throws.
 */
export function redactSecret<T extends string | undefined>(text: T, secrets: Secrets): T {
  if (text === undefined || secrets === undefined) return text;
  const list = typeof secrets === 'string' ? [secrets] : [...secrets].sort((a, b) => b.length - a.length);
  const escaped = /[\\%+]/.test(text);
  let out: string = text;
  for (const secret of list) {
    if (secret.length < 4) continue;
    out = replaceAnyCase(out, secret);
    if (!escaped || secret.length > MAX_ESCAPED_SECRET) continue;
    const pattern = patternOf(secret);
    if (pattern !== null) out = out.replace(pattern, REDACTED);
  }
  return out as T;
}

/**
 * {@link redactSecret}, then the text cut to `max` characters, less any end of it that may be the
 * start of a secret (a secret cut by the cut, or by a limit the text was read under, leaves no
 * piece of itself): scrub first, cut after.
 */
export function redactCut(text: string, secrets: Secrets, max: number): string {
  const out = redactSecret(text, secrets);
  const cut = out.length > max ? out.slice(0, max) : out;
  if (secrets === undefined) return cut;
  const lower = cut.toLowerCase();
  let keep = cut.length;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (secret.length < 4) continue;
    const head = secret.toLowerCase();
    for (let length = Math.min(head.length - 1, lower.length); length > 0; length -= 1) {
      if (lower.endsWith(head.slice(0, length))) {
        keep = Math.min(keep, lower.length - length);
        break;
      }
    }
  }
  return cut.slice(0, keep);
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
 * Every secret a request carries, for {@link redactSecret}: the API key (as given and trimmed, as
 * `fetch` sends it); every value of the `headers` the caller gave (`x-api-key`, `Authorization`,
 * `Cookie`, custom headers: any may be a credential), whole and split into its pieces of at least
 * 8 characters (each value of `a=<v>; b=<w>`, quotes dropped: a Digest `response="…"`), the
 * credential after an `Authorization` scheme (`Token <t>`) and the value of a cookie or parameter
 * named like a credential (`session=<v>`) from 4 characters; the user name and password of a base
 * URL (as written and decoded).
 */
export function requestSecrets(request: {
  readonly apiKey?: string | undefined;
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
  readonly baseURL?: string | URL | undefined;
}): string[] {
  const secrets = new Set<string>();
  if (request.apiKey !== undefined && request.apiKey !== '') {
    secrets.add(request.apiKey);
    if (request.apiKey.trim().length >= 4) secrets.add(request.apiKey.trim());
  }
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (typeof value !== 'string') continue;
    addValue(secrets, value);
    const whole = value.trim();
    // `Authorization: <scheme> <credential>`: the credential whatever its length (from 4).
    const scheme = /^[A-Za-z][\w.+-]*\s+(\S+)$/.exec(whole);
    if (/authorization/i.test(name) && scheme?.[1] !== undefined && scheme[1].length >= 4) secrets.add(scheme[1]);
    // `name=value` pairs (cookies, Digest parameters) whose name looks like a credential.
    for (const pair of whole.split(/[;,]/)) {
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const piece = unquote(pair.slice(at + 1).trim());
      if (piece.length >= 4 && isSecretName(pair.slice(0, at).trim())) secrets.add(piece);
    }
  }
  for (const part of urlCredentials(request.baseURL)) secrets.add(part);
  return [...secrets];
}

/** `text` without the quotation marks around it, if it has them. */
const unquote = (text: string): string => (/^(["']).*\1$/s.test(text) ? text.slice(1, -1) : text);

/** Adds a credential's value whole and split into its pieces of at least {@link MIN_PIECE} characters, unquoted. */
function addValue(secrets: Set<string>, value: string): void {
  const whole = value.trim();
  if (whole.length >= 4) secrets.add(whole);
  for (const piece of whole.split(/[\s,;=:]+/)) {
    const bare = unquote(piece);
    if (bare.length >= MIN_PIECE) secrets.add(bare);
  }
}

/**
 * Values that are credentials by their form, whatever their name: the key prefixes of OpenAI
 * (`sk-`), Stripe-style (`sk_`, `rk_`), GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
 * `github_pat_`), GitLab (`glpat-`), Slack (`xoxb-`, ...), Hugging Face (`hf_`), AWS access keys
 * (`AKIA`, `ASIA`) and Google API keys (`AIza`), with at least 12 more characters.
 */
const CREDENTIAL_FORMAT =
  /^\s*(?:sk-|sk_|rk_|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|hf_|AKIA|ASIA|AIza)[\w-]{12,}\s*$/;

/** How deep {@link optionSecrets} reads provider options, and how many values it reads at most. */
const MAX_OPTION_DEPTH = 64;
const MAX_OPTION_VALUES = 100_000;

/**
 * The credential-like values in provider options (a request's or a model's), for
 * {@link redactSecret}: every string under a key whose name looks like a credential (see
 * `isSecretName`: `api_key`, `accessToken`, `clientSecret`, `password`, `pat`, `sasUrl`, `dsn`,
 * `cookie`, ...; the names `urlForSettings` drops from a query), at any depth up to 64 and in any
 * array or object below such a key, whole and split into its pieces of at least 8 characters; an
 * integer of 8 digits or more under such a key; under any key, a string in a known credential
 * format (`sk-…`, `ghp_…`, `xoxb-…`, `AKIA…`, ...) and the user name and password of a URL.
 * Options are read as JSON sends them (`toJSON` applied, a `String` object a string). Options may
 * be sent in a body (`extraBody`) and a server may echo them in an error. Reads at most 100,000
 * values (an array of numbers under an ordinary name is skipped whole); never throws.
 */
export function optionSecrets(options: unknown): string[] {
  if (options === undefined || options === null) return [];
  let sent: unknown = options;
  try {
    sent = JSON.parse(JSON.stringify(options)) as unknown;
  } catch {
    // a cycle or a bigint: read the options as they are
  }
  const secrets = new Set<string>();
  let budget = MAX_OPTION_VALUES;
  const walk = (value: unknown, secret: boolean, depth: number): void => {
    if (budget <= 0) return;
    budget -= 1;
    if (typeof value === 'string') {
      if (secret || CREDENTIAL_FORMAT.test(value)) addValue(secrets, value);
      // A URL with a user name or password, under any name (a proxy's, a webhook's).
      if (value.includes('@') && value.includes('://')) for (const part of urlCredentials(value)) secrets.add(part);
      return;
    }
    // A credential given as a number (`api_key: 48291337`); shorter numbers are counts and limits.
    if (typeof value === 'number' && secret && Number.isInteger(value) && Math.abs(value) >= 1e7) {
      secrets.add(String(value));
      return;
    }
    if (typeof value !== 'object' || value === null || depth >= MAX_OPTION_DEPTH) return;
    try {
      if (Array.isArray(value)) {
        for (const item of value)
          if (secret || (typeof item === 'object' && item !== null)) walk(item, secret, depth + 1);
        return;
      }
      for (const key of Object.keys(value)) {
        walk((value as Record<string, unknown>)[key], secret || isSecretName(key), depth + 1);
      }
    } catch {
      // a getter that throws or a proxy: what was read so far is kept
    }
  };
  walk(sent, false, 0);
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
