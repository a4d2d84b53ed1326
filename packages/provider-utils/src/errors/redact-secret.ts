import { isSecretName } from './secret-name.js';

/** What a secret is replaced with in error messages and bodies. */
export const REDACTED = '[redacted]';

/** One secret, or every secret of a request (see {@link requestSecrets}). */
export type Secrets = string | readonly string[] | undefined;

/** JSON's short escapes: the character each stands for. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The code points of the HTML named references a secret's characters are commonly escaped as. */
const NAMED_REFERENCES: Readonly<Record<string, number>> = { amp: 0x26, lt: 0x3c, gt: 0x3e, quot: 0x22, apos: 0x27 };

/** The value of a hex digit, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The value of `text`'s two hex digits at `at`, or -1. */
function hexByte(text: string, at: number): number {
  const high = hexValue(text.charCodeAt(at));
  const low = hexValue(text.charCodeAt(at + 1));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/**
 * `text` read the way a secret may be spelled in it, lower-cased, with where each character came
 * from: a JSON escape (`\uXXXX`, `\"`, `\\`, `\/`, `\n`, ...), a URL `%XX` escape (a UTF-8
 * sequence of them for a non-ASCII character) or an HTML character reference (`&amp;`, `&#39;`,
 * `&#x2F;`) is the character it stands for, and with `plus` a
 * form's `+` is a space. `from[i]`/`to[i]`: the span of `text` the `i`-th character came from.
 */
function readForms(text: string, plus: boolean): { read: string; from: number[]; to: number[] } {
  let read = '';
  const from: number[] = [];
  const to: number[] = [];
  const put = (char: string, start: number, end: number): void => {
    const lower = char.toLowerCase();
    // Lower-casing that changes a length (`İ`) would shift positions: such a character as it is.
    const chosen = lower.length === char.length ? lower : char;
    for (let index = 0; index < chosen.length; index += 1) {
      read += chosen[index];
      from.push(start);
      to.push(end);
    }
  };
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === '\\') {
      const next = text[at + 1] ?? '';
      if (next === 'u') {
        const high = hexByte(text, at + 2);
        const low = hexByte(text, at + 4);
        if (high >= 0 && low >= 0) {
          put(String.fromCharCode(high * 256 + low), at, at + 6);
          at += 6;
          continue;
        }
      }
      const short = SHORT_ESCAPES[next];
      if (short !== undefined) {
        put(short, at, at + 2);
        at += 2;
        continue;
      }
    } else if (char === '%') {
      const lead = hexByte(text, at + 1);
      const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
      const bytes: number[] = [];
      for (let index = 0; index < length && text[at + index * 3] === '%'; index += 1) {
        const byte = hexByte(text, at + index * 3 + 1);
        if (byte < 0 || (index > 0 && (byte & 0xc0) !== 0x80)) break;
        bytes.push(byte);
      }
      if (lead >= 0 && length > 0 && bytes.length === length) {
        put(new TextDecoder().decode(new Uint8Array(bytes)), at, at + length * 3);
        at += length * 3;
        continue;
      }
    } else if (char === '&') {
      // An HTML character reference (a proxy's error page): `&amp;`, `&lt;`, `&#39;`, `&#x2F;`.
      const entity = /^&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([\da-f]{1,6}));/i.exec(text.slice(at, at + 12));
      const point =
        entity === null
          ? undefined
          : entity[1] !== undefined
            ? NAMED_REFERENCES[entity[1].toLowerCase()]
            : Number.parseInt(entity[2] ?? entity[3] ?? '', entity[2] !== undefined ? 10 : 16);
      if (entity !== null && point !== undefined && point <= 0x10ffff) {
        put(String.fromCodePoint(point), at, at + entity[0].length);
        at += entity[0].length;
        continue;
      }
    } else if (plus && char === '+') {
      put(' ', at, at + 1);
      at += 1;
      continue;
    }
    put(char, at, at + 1);
    at += 1;
  }
  return { read, from, to };
}

/** How much of the start of a secret longer than this is redacted on its own, wherever it appears. */
const HEAD = 12;

/**
 * `text` with every occurrence of `secret`, in any case and in any of the forms {@link readForms}
 * reads, replaced with `[redacted]`, and so is the start of it (12 characters or more) wherever it
 * appears. Linear in the text for any secret length.
 */
function redactOne(text: string, secret: string): string {
  const needle = secret.toLowerCase();
  let out = text;
  for (const plus of secret.includes(' ') ? [false, true] : [false]) {
    const { read, from, to } = readForms(out, plus);
    const spans: Array<[number, number]> = [];
    // The secret whole, or (one longer than HEAD) a head of at least HEAD characters of it: a
    // secret cut by a limit somewhere (an event name cut to 60 characters) leaves no head either.
    const head = needle.length > HEAD ? needle.slice(0, HEAD) : needle;
    for (let at = read.indexOf(head); at >= 0; ) {
      let length = head.length;
      while (length < needle.length && read[at + length] === needle[length]) length += 1;
      spans.push([from[at] as number, to[at + length - 1] as number]);
      at = read.indexOf(head, at + length);
    }
    for (let index = spans.length - 1; index >= 0; index -= 1) {
      const [start, end] = spans[index] as [number, number];
      out = `${out.slice(0, start)}${REDACTED}${out.slice(end)}`;
    }
  }
  return out;
}

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`, longest first (so a secret
 * that contains another is replaced whole), in any case, also where the text spells it with
 * escapes: any of its characters as a JSON escape (`\uXXXX`, `\"`, `\\`, `\/`, `\n`, ...), a URL
 * `%XX` escape (UTF-8 bytes for a non-ASCII character), an HTML character reference (`&amp;`,
 * `&#39;`) or a form's `+` for a space; the first 12
 * characters or more of a longer secret are redacted on their own too (a secret cut somewhere
 * leaves no head). Linear in the text for a secret of any length. Secrets shorter than four characters are left alone (they would
 * match ordinary words), and so is `undefined` text. Never throws.
 */
export function redactSecret<T extends string | undefined>(text: T, secrets: Secrets): T {
  if (text === undefined || secrets === undefined) return text;
  const list = typeof secrets === 'string' ? [secrets] : [...secrets].sort((a, b) => b.length - a.length);
  let out: string = text;
  for (const secret of list) if (secret.length >= 4) out = redactOne(out, secret);
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
  readonly headers?: Readonly<Record<string, string | number | undefined>> | undefined;
  readonly baseURL?: string | URL | undefined;
}): string[] {
  const secrets = new Set<string>();
  const apiKey = request.apiKey === undefined || request.apiKey === null ? undefined : String(request.apiKey);
  if (apiKey !== undefined && apiKey !== '') {
    secrets.add(apiKey);
    if (apiKey.trim().length >= 4) secrets.add(apiKey.trim());
  }
  for (const [name, given] of Object.entries(request.headers ?? {})) {
    // A number is sent as its text (`fetch` converts it).
    const value = typeof given === 'number' || typeof given === 'bigint' ? String(given) : given;
    if (typeof value !== 'string') continue;
    addValue(secrets, value);
    const whole = value.trim();
    // `Authorization: <scheme> <credential>`: the credential whatever its length (from 4).
    const scheme = /^[A-Za-z][\w.+-]*\s+(\S+)$/.exec(whole);
    if (/authorization/i.test(name) && scheme?.[1] !== undefined && scheme[1].length >= 4) secrets.add(scheme[1]);
  }
  for (const part of urlCredentials(request.baseURL)) secrets.add(part);
  return [...secrets];
}

/** `text` without the quotation marks around it, if it has them. */
const unquote = (text: string): string => (/^(["']).*\1$/s.test(text) ? text.slice(1, -1) : text);

/**
 * Adds a credential's value: whole; split into its pieces of at least {@link MIN_PIECE} characters
 * at white space and the punctuation around values (`,;=:&?#"'{}[]()<>`: a token in a URL's
 * query, a key inside a JSON-valued header); the value of each `name=value` pair whose name looks
 * like a credential from 4 characters; and, when it is JSON (and `readJson`), what
 * {@link optionSecrets} finds in it.
 */
function addValue(secrets: Set<string>, value: string, readJson = true): void {
  const whole = value.trim();
  if (whole.length >= 4) secrets.add(whole);
  for (const piece of whole.split(/[\s,;=:&?#"'{}[\]()<>]+/)) if (piece.length >= MIN_PIECE) secrets.add(piece);
  for (const pair of whole.split(/[\s;,&?#]+/)) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const piece = unquote(pair.slice(at + 1).trim());
    if (piece.length >= 4 && isSecretName(pair.slice(0, at).trim())) secrets.add(piece);
  }
  if (readJson && /^[{[]/.test(whole)) {
    try {
      for (const secret of optionSecrets(JSON.parse(whole) as unknown)) secrets.add(secret);
    } catch {
      // not JSON
    }
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
      if (secret || CREDENTIAL_FORMAT.test(value)) addValue(secrets, value, false);
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
