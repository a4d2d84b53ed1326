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
/** The other spellings of `'` an HTML escaper writes (`&#39;` is in {@link HTML}). */
const APOSTROPHES = ['&#x27;', '&#039;', '&apos;'] as const;

function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function asciiEscaped(escaped: string, upper = false): string {
  return escaped.replace(/[^\x20-\x7e]/g, (char) => {
    const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

function uriEncoded(value: string, encode: (text: string) => string): string | undefined {
  try {
    return encode(value);
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
function base64Cores(value: string | Uint8Array, out: Set<string>): void {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
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
 * and twice, with non-ASCII as `\uXXXX` in lower- and upper-case hex, and with `/` as `\/`),
 * URL-encoded (`encodeURIComponent` with upper- and lower-case hex and `+` for spaces, `encodeURI`,
 * and the `URLSearchParams` form encoding), HTML-escaped (named, decimal and hex entities, the
 * apostrophe spelled each common way),
 * hex of its UTF-8 bytes (lower- and upper-case), and
 * base64 / base64url at every byte alignment (values of 7+ UTF-8 bytes; line-wrapped base64 is
 * found by {@link scrubText}, which also matches across line breaks).
 * Patterns under 8 characters match only at word edges (see `MIN_ANYWHERE_LENGTH`).
 * Not covered: hashes, other encodings or transformations of the value (a tool that reverses,
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
  out.add(asciiEscaped(escaped, true));
  // PHP and some JSON writers escape `/` as `\/`.
  out.add(escaped.replaceAll('/', '\\/'));
  out.add(asciiEscaped(escaped).replaceAll('/', '\\/'));
  const uri = uriEncoded(value, encodeURIComponent);
  if (uri !== undefined) {
    out.add(uri);
    out.add(uri.replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase()));
    out.add(uri.replaceAll('%20', '+'));
  }
  const fullUri = uriEncoded(value, encodeURI);
  if (fullUri !== undefined) out.add(fullUri);
  // `URLSearchParams` / HTML forms: `application/x-www-form-urlencoded` (`!'()~` encoded, `+` for space).
  const form = new URLSearchParams([['', value]]).toString().slice(1);
  out.add(form);
  out.add(form.replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase()));
  out.add(value.replace(/[&<>"']/g, (char) => HTML[char] ?? char));
  for (const apostrophe of APOSTROPHES)
    out.add(value.replace(/[&<>"']/g, (char) => (char === "'" ? apostrophe : (HTML[char] ?? char))));
  out.add(value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`));
  out.add(value.replace(/[&<>"']/g, (char) => `&#x${char.charCodeAt(0).toString(16)};`));
  base64Cores(value, out);
  const hex = Buffer.from(value, 'utf8').toString('hex');
  out.add(hex);
  out.add(hex.toUpperCase());
  return [...out];
}

/**
 * The texts binary secret bytes (a key held in a `Buffer` or `Uint8Array`) are commonly written
 * as: hex (lower- and upper-case), base64 and base64url (padded and not), and the base64 /
 * base64url characters that depend on the bytes alone at each byte alignment. Empty below
 * {@link MIN_SCRUB_LENGTH} bytes. Each is a secret of its own (expand it with the others).
 * @internal
 */
export function binaryVariants(bytes: Uint8Array): readonly string[] {
  if (bytes.byteLength < MIN_SCRUB_LENGTH) return [];
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Set<string>();
  const hex = buffer.toString('hex');
  out.add(hex);
  out.add(hex.toUpperCase());
  const base64 = buffer.toString('base64');
  out.add(base64);
  out.add(base64.replace(/=+$/, ''));
  out.add(buffer.toString('base64url'));
  base64Cores(buffer, out);
  return [...out];
}

/** A line of a multi-line secret this long or longer is a secret of its own (see {@link expandSecrets}). */
const MIN_SECRET_LINE = MIN_ANYWHERE_LENGTH;

/**
 * The lines of a multi-line value (a PEM key, a JSON credential file) long enough to be searched
 * on their own, trimmed: a tool that rewrites the line breaks (`\r\n`, spaces, nothing) or quotes
 * only some lines still cannot show them.
 */
function secretLines(value: string): readonly string[] {
  if (!/[\r\n]/.test(value)) return [];
  return value
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter((line) => line.length >= MIN_SECRET_LINE);
}

/**
 * Every variant of every value and of its NFC and NFD normal forms (see {@link secretVariants}),
 * and of each long line of a multi-line value (see `secretLines`), deduplicated, longest first.
 * @internal
 */
export function expandSecrets(values: Iterable<string>): readonly string[] {
  const out = new Set<string>();
  for (const value of values) {
    for (const variant of secretVariants(value)) out.add(variant);
    for (const line of secretLines(value)) for (const variant of secretVariants(line)) out.add(variant);
    // The same text in the other Unicode normal forms (`é` as one code point or as `e` + accent).
    for (const form of ['NFC', 'NFD'] as const) {
      const normal = value.normalize(form);
      if (normal !== value) for (const variant of secretVariants(normal)) out.add(variant);
    }
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** A value this long or longer is also searched for cut off at an edge of a text (see {@link scrubText}). */
export const MIN_PARTIAL_SOURCE = 12;
/** The shortest cut-off part of a value that is redacted at an edge of a text. */
export const MIN_PARTIAL = MIN_ANYWHERE_LENGTH;

/** Lines of one text whose edges are checked for cut-off values (the text's own edges always are). */
const MAX_EDGE_LINES = 1000;

/** What may follow a cut: whitespace, `...` or `…`. */
const CUT_TAIL = /(?:\s*(?:\.\.\.|…))?\s*$/u;
const CUT_HEAD = /^\s*(?:\.\.\.|…)?/u;

/** Occurrences of each value in `text`, as [start, end) ranges. */
function findAll(text: string, values: readonly string[], out: [number, number][]): void {
  for (const value of values) {
    if (value === '') continue;
    let at = text.indexOf(value);
    while (at !== -1) {
      if (counts(text, value, at)) out.push([at, at + value.length]);
      at = text.indexOf(value, at + 1);
    }
  }
}

/**
 * Cut-off echoes: a prefix of a value (at least {@link MIN_PARTIAL} characters, of a value of at
 * least {@link MIN_PARTIAL_SOURCE}) that ends the text or one of its first 1000 lines (before
 * trailing whitespace, `...` or `…`), and a suffix that starts one: what is left of a value after a tool, an upstream service or a
 * limit truncated or split the text it was in.
 */
function findEdges(text: string, values: readonly string[], out: [number, number][]): void {
  // Each line is an edge too (an error's message line in its stack, one block of joined text).
  const ends = new Set<number>();
  const starts = new Set<number>();
  let lineStart = 0;
  for (let line = 0; line < MAX_EDGE_LINES && lineStart <= text.length; line += 1) {
    const next = text.indexOf('\n', lineStart);
    const lineEnd = next === -1 ? text.length : next;
    const content = text.slice(lineStart, lineEnd);
    ends.add(lineEnd);
    ends.add(lineEnd - (CUT_TAIL.exec(content)?.[0].length ?? 0));
    starts.add(lineStart);
    starts.add(lineStart + (CUT_HEAD.exec(content)?.[0].length ?? 0));
    if (next === -1) break;
    lineStart = next + 1;
  }
  ends.add(text.length);
  for (const value of values) {
    if (value.length < MIN_PARTIAL_SOURCE) continue;
    for (const end of ends) prefixEndingAt(text, value, end, out);
    for (const start of starts) suffixStartingAt(text, value, start, out);
  }
}

/** The longest prefix of `value` (of {@link MIN_PARTIAL}+ characters, shorter than it) that ends at `end`. */
function prefixEndingAt(text: string, value: string, end: number, out: [number, number][]): void {
  // Only the characters a cut-off prefix can occupy are searched (never the rest of a long text).
  const from = Math.max(0, end - value.length + 1);
  const window = text.slice(from, end);
  const head = value.slice(0, MIN_PARTIAL);
  let at = window.indexOf(head);
  while (at !== -1 && at + MIN_PARTIAL <= window.length) {
    if (value.startsWith(window.slice(at))) {
      out.push([from + at, end]);
      return;
    }
    at = window.indexOf(head, at + 1);
  }
}

/** The longest suffix of `value` (of {@link MIN_PARTIAL}+ characters, shorter than it) that starts at `start`. */
function suffixStartingAt(text: string, value: string, start: number, out: [number, number][]): void {
  const window = text.slice(start, Math.min(text.length, start + value.length - 1));
  const tail = value.slice(-MIN_PARTIAL);
  let last = window.lastIndexOf(tail);
  while (last >= 0) {
    const stop = last + MIN_PARTIAL;
    if (value.endsWith(window.slice(0, stop))) {
      out.push([start, start + stop]);
      return;
    }
    last = last === 0 ? -1 : window.lastIndexOf(tail, last - 1);
  }
}

/**
 * Occurrences across line breaks (a value wrapped or split over lines: MIME base64 at 76 columns,
 * text blocks joined with `\n`): values of 8+ characters searched in `text` without its `\r` and
 * `\n`, mapped back to ranges of `text`.
 */
function findWrapped(text: string, values: readonly string[], out: [number, number][]): void {
  const long = values.filter((value) => value.length >= MIN_ANYWHERE_LENGTH && !value.includes('\n'));
  if (long.length === 0) return;
  const flat = text.replace(LINE_BREAK, '');
  // `shifted[i]` = position of the i-th line break minus i: a flat index `f` sits at `f + k` in
  // `text`, `k` the number of breaks whose shifted position is at most `f`.
  const shifted: number[] = [];
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === 10 || char === 13) shifted.push(at - shifted.length);
  }
  const original = (index: number): number => {
    let low = 0;
    let high = shifted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((shifted[middle] as number) <= index) low = middle + 1;
      else high = middle;
    }
    return index + low;
  };
  const found: [number, number][] = [];
  findAll(flat, long, found);
  findEdges(flat, long, found);
  for (const [start, end] of found) if (end > start) out.push([original(start), original(end - 1) + 1]);
}

const LINE_BREAK = /[\r\n]/g;

/**
 * `text` with every occurrence of each value replaced by `[redacted]`: where it appears whole,
 * where it is broken across line breaks, and where it is cut off at either edge of the text (a
 * prefix of 8+ characters of a value of 12+ ending the text, before whitespace or `...`; a suffix
 * starting it). Occurrences are found in the original text (overlapping ones merged) and replaced
 * in one pass, so one value never matches inside the marker another one left. Values are used as
 * given (expand them first).
 * @internal
 */
export function scrubText(text: string, values: readonly string[]): string {
  if (values.length === 0 || text === '') return text;
  const ranges: [number, number][] = [];
  findAll(text, values, ranges);
  findEdges(text, values, ranges);
  if (text.includes('\n') || text.includes('\r')) findWrapped(text, values, ranges);
  if (ranges.length === 0) return text;
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
