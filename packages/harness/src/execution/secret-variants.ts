/** What replaces a sensitive value in events, spans, traces and error messages. */
export const REDACTED = '[redacted]';

/**
 * Values shorter than this are not searched for in free text: scrubbing a 1–3 character value
 * (`"a"`, `"42"`, `"yes"`) would cut up every text it touches and tell a reader what was hidden.
 * They are still redacted where their position is known (a sensitive argument path, a structured
 * leaf equal to an injected value is not: only free text is searched).
 * @internal
 */
export const MIN_SCRUB_LENGTH = 4;

/**
 * A pattern shorter than this matches only at word edges: where it starts (ends) with a letter or
 * digit, the character before (after) it must not be one. A 4-digit PIN is then found in
 * `pin 5717` and `"5717"` but not inside `-1966257170`, and `"kg"`-like fragments of words stay.
 */
const MIN_ANYWHERE_LENGTH = 8;

/** Base64 variants need this many characters of their own (a value of 7+ UTF-8 bytes) before they are searched for, anywhere. */
const MIN_BASE64_CORE = MIN_ANYWHERE_LENGTH;

const WORD = /[\p{L}\p{N}]/u;
const isWord = (char: string | undefined) => char !== undefined && char !== '' && WORD.test(char);

/** Whether the occurrence of `value` at `at` counts (see {@link MIN_ANYWHERE_LENGTH}). */
function counts(text: string, value: string, at: number): boolean {
  if (value.length >= MIN_ANYWHERE_LENGTH) return true;
  if (isWord(value[0]) && isWord(text[at - 1])) return false;
  if (isWord(value[value.length - 1]) && isWord(text[at + value.length])) return false;
  return true;
}

/** Whether `text` holds any of `values` (as {@link scrubText} would find them). @internal */
export function containsSecret(text: string, values: readonly string[]): boolean {
  for (const value of values) {
    if (value === '') continue;
    let at = text.indexOf(value);
    while (at !== -1) {
      if (counts(text, value, at)) return true;
      at = text.indexOf(value, at + 1);
    }
  }
  return false;
}

const HTML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function asciiEscaped(escaped: string): string {
  return escaped.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function uriEncoded(value: string): string | undefined {
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate has no UTF-8 form: nothing could have URL-encoded it either.
    return undefined;
  }
}

/**
 * Base64 (standard and URL-safe, unpadded) of `value` at each of the three byte alignments it can
 * have inside a longer encoded blob (`Basic base64(user:secret)`): the characters that depend on
 * `value`'s bytes alone, which appear in any encoding holding them at that alignment.
 */
function base64Cores(value: string, out: Set<string>): void {
  const bytes = Buffer.from(value, 'utf8');
  for (let shift = 0; shift < 3; shift += 1) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const encoded = padded.toString('base64').replace(/=+$/, '');
    const start = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * padded.length) / 6);
    const core = encoded.slice(start, end);
    if (core.length < MIN_BASE64_CORE) continue;
    out.add(core);
    out.add(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
}

/**
 * The forms a tool commonly echoes a value in, for searching free text: as is, JSON-escaped (once
 * and twice, and with non-ASCII as `\uXXXX`), URL-encoded (`encodeURIComponent`, lower-case hex,
 * `+` for spaces), HTML-escaped, and base64 / base64url at every byte alignment (values of 7+ UTF-8 bytes).
 * Patterns under 8 characters match only at word edges (see `MIN_ANYWHERE_LENGTH`).
 * Not covered: hashes, hex, other encodings or transformations of the value (a tool that reverses,
 * splits or encrypts a secret can always hide it from any scrubber). Empty below
 * {@link MIN_SCRUB_LENGTH}.
 * @internal
 */
export function secretVariants(value: string): readonly string[] {
  if (value.length < MIN_SCRUB_LENGTH) return [];
  const out = new Set<string>([value]);
  const escaped = jsonEscaped(value);
  out.add(escaped);
  out.add(jsonEscaped(escaped));
  out.add(asciiEscaped(escaped));
  const uri = uriEncoded(value);
  if (uri !== undefined) {
    out.add(uri);
    out.add(uri.replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase()));
    out.add(uri.replaceAll('%20', '+'));
  }
  out.add(value.replace(/[&<>"']/g, (char) => HTML[char] ?? char));
  base64Cores(value, out);
  return [...out];
}

/**
 * Every variant of every value (see {@link secretVariants}), deduplicated, longest first.
 * @internal
 */
export function expandSecrets(values: Iterable<string>): readonly string[] {
  const out = new Set<string>();
  for (const value of values) for (const variant of secretVariants(value)) out.add(variant);
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every occurrence of each value replaced by `[redacted]`. Occurrences are found in
 * the original text (overlapping ones merged) and replaced in one pass, so one value never matches
 * inside the marker another one left. Values are used as given (expand them first).
 * @internal
 */
export function scrubText(text: string, values: readonly string[]): string {
  let ranges: [number, number][] | undefined;
  for (const value of values) {
    if (value === '') continue;
    let at = text.indexOf(value);
    while (at !== -1) {
      if (counts(text, value, at)) {
        ranges ??= [];
        ranges.push([at, at + value.length]);
      }
      at = text.indexOf(value, at + 1);
    }
  }
  if (ranges === undefined) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let position = 0;
  let index = 0;
  while (index < ranges.length) {
    const [start, first] = ranges[index] as [number, number];
    let end = first;
    index += 1;
    while (index < ranges.length && (ranges[index] as [number, number])[0] <= end) {
      end = Math.max(end, (ranges[index] as [number, number])[1]);
      index += 1;
    }
    out += text.slice(position, start) + REDACTED;
    position = end;
  }
  return out + text.slice(position);
}
