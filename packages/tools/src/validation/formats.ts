import type { Ajv } from 'ajv';
import { isIdnEmail, isIdnHostnameFormat, isUri, isUriReference } from './idn-formats.js';
import { compileLinearPattern } from './linear-regexp.js';

/*
 * Format checks that replace ajv-formats' where its regular expression is not linear in the input.
 * Every ajv-formats string format was timed on 2,000- and 8,000-character inputs of each shape that
 * stresses its expression ('http://' + colons, repeated letters, `%41`, `a.`, `a-`, digits, `/`,
 * `{`, `a:`, long fractions): only `url` grew faster than the length (an 8,000-character
 * 'http://' + colons took 125 ms, 80 KB 12.8 s: its userinfo part `\S+(?::\S*)?@` backtracks over
 * every split). The others run in at most a few nanoseconds per character.
 */

/** `https://`, `http://` or `ftp://`, any case (ajv-formats' `url`). */
const URL_SCHEME = /^(?:https?|ftp):\/\//i;
/** Any ECMA-262 white space or line terminator (ajv-formats' `\S` and `[^\s]`). */
const WHITE_SPACE = /\s/u;
/**
 * ajv-formats' `url` host and port (gist.github.com/dperini/729294): a public IPv4 address (the
 * lookaheads refuse private and loopback ranges) or a dotted name with a top-level label of two
 * letters or more, then an optional port. Run only on a segment holding no `@` and no `/`, where
 * its backtracking is bounded by the segment's length.
 */
const URL_HOST =
  /^(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?$/iu;

/**
 * Whether `value` is a `url` as ajv-formats defines it (`http`, `https` or `ftp`, optional
 * userinfo, a public IPv4 address or a name with a top-level label, optional port, then `/` and
 * anything without white space), decided in time linear in its length. The userinfo is any
 * non-space text up to an `@`, and a host holds neither `@` nor `/`: so between two slashes only
 * the text after the last `@` can be the host (or all of the first piece, when it has no `@`),
 * and each character is tested in one candidate at most.
 */
export function isUrl(value: string): boolean {
  const scheme = URL_SCHEME.exec(value);
  if (scheme === null) return false;
  const rest = value.slice(scheme[0].length);
  if (WHITE_SPACE.test(rest)) return false;
  let offset = 0;
  for (const piece of rest.split('/')) {
    const at = piece.lastIndexOf('@');
    // A userinfo is not empty: an `@` first in the whole rest does not end one.
    const host = at === -1 ? (offset === 0 ? piece : undefined) : offset + at >= 1 ? piece.slice(at + 1) : undefined;
    if (host !== undefined && URL_HOST.test(host)) return true;
    offset += piece.length + 1;
  }
  return false;
}

/** An ASCII letter-digit-hyphen label (RFC 1123 2.1): 1 to 63 characters, no hyphen at either end. */
const LDH_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** An A-label prefix (RFC 5890 2.3.2.1), any case. */
const A_LABEL = /^xn--/i;

/**
 * Whether `value` is a `hostname` (JSON Schema 2020-12: RFC 1123 2.1, with A-labels as RFC 5890
 * defines them): dot-separated LDH labels of at most 63 characters, at most 253 in all, no
 * trailing dot; a label with `--` in its third and fourth characters must be an `xn--` A-label
 * whose Punycode decodes to a valid U-label (checked by {@link isIdnHostnameFormat}).
 */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  for (const label of value.split('.')) {
    if (!LDH_LABEL.test(label)) return false;
    if (label[2] === '-' && label[3] === '-' && !(A_LABEL.test(label) && isIdnHostnameFormat(label))) return false;
  }
  return true;
}

/** RFC 3339 Appendix A `dur-time`: hours, minutes and seconds in order, none skipped between two given. */
const DUR_TIME = 'T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S)';
/** RFC 3339 Appendix A `duration`: `dur-date [dur-time]`, `dur-time` or `dur-week` (ASCII digits). */
const DURATION = new RegExp(
  `^P(?:(?:\\d+D|\\d+M(?:\\d+D)?|\\d+Y(?:\\d+M(?:\\d+D)?)?)(?:${DUR_TIME})?|${DUR_TIME}|\\d+W)$`,
);

/** Whether `value` is an RFC 3339 Appendix A `duration` (`P1Y2M`, `PT1M`, `P2W`; not `P1Y2D`). */
export function isDuration(value: string): boolean {
  return DURATION.test(value);
}

/** RFC 3339 5.6 `partial-time` and `time-offset` (the offset's colon is required; `T`/`Z` any case). */
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
/** RFC 3339 5.6 `full-date`. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether `value` is an RFC 3339 `full-date` (days per month, leap years). */
function isFullDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month] as number));
}

/**
 * Whether `value` is an RFC 3339 `full-time`: hour 00-23, minute 00-59, second 00-59 or a leap
 * second 60 that is 23:59:60 in UTC, any number of fraction digits, and `Z` or a `+hh:mm`/`-hh:mm`
 * offset (hours 00-23, minutes 00-59).
 */
export function isFullTime(value: string): boolean {
  const match = TIME.exec(value);
  if (match === null) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const sign = match[4] === '-' ? -1 : 1;
  const [offsetHour, offsetMinute] = [Number(match[5] ?? 0), Number(match[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const utc = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

/** Whether `value` is an RFC 3339 `date-time`: a `full-date`, `T` (any case), a `full-time`. */
export function isDateTime(value: string): boolean {
  const separator = value.indexOf('T') === 10 ? 10 : value.indexOf('t') === 10 ? 10 : -1;
  return separator === 10 && isFullDate(value.slice(0, 10)) && isFullTime(value.slice(11));
}

/** RFC 4122 3's string form (no `urn:uuid:` prefix: that is a URN, not a UUID), any case. */
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

/** Whether `value` is a regular expression as JSON Schema 2020-12 reads one: ECMA-262 with the `u` flag (no `\a`). */
export function isEcmaRegex(value: string): boolean {
  try {
    new RegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * RFC 6570 2's `URI-Template`: literals (any character but controls, space, `"`, `%` outside a
 * pct-encoding, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`; the apostrophe is allowed, as the
 * JSON-Schema-Test-Suite reads it) and `{op var,var:3,var*}` expressions with dotted names.
 */
const URI_TEMPLATE_SOURCE = (() => {
  const pct = '%[0-9A-Fa-f]{2}';
  const literal = `(?:[\\x21\\x23\\x24\\x26-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E\\u{A0}-\\u{D7FF}\\u{E000}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{10FFFD}]|${pct})`;
  const varchar = `(?:[A-Za-z0-9_]|${pct})`;
  const varspec = `${varchar}(?:\\.?${varchar})*(?::[1-9][0-9]{0,3}|\\*)?`;
  const expression = `\\{[+#./;?&=,!@|]?${varspec}(?:,${varspec})*\\}`;
  return `^(?:${literal}|${expression})*$`;
})();
let uriTemplate: ReturnType<typeof compileLinearPattern> | undefined;

/** Whether `value` is an RFC 6570 URI template (checked on the linear-time engine). */
export function isUriTemplate(value: string): boolean {
  uriTemplate ??= compileLinearPattern(URI_TEMPLATE_SOURCE);
  return !LONE_SURROGATE.test(value) && uriTemplate.test(value);
}
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Any character outside ASCII. */
const NON_ASCII = /[^\x00-\x7F]/;

/**
 * Whether `value` is an `email` (RFC 5321 `Mailbox`, ASCII): a dot-string or quoted local part
 * of at most 64 octets, `@`, then a host name or an address literal (`[127.0.0.1]`, `[IPv6:::1]`):
 * {@link isIdnEmail} restricted to ASCII.
 */
export function isEmail(value: string): boolean {
  return !NON_ASCII.test(value) && isIdnEmail(value);
}

/** A format check ajv calls with the string. */
type FormatCheck = (value: string) => boolean;

/** The formats {@link useStrictFormats} sets, replacing ajv-formats' (see each check). */
const STRICT_FORMATS: Readonly<Record<string, FormatCheck>> = {
  url: isUrl,
  hostname: isHostname,
  duration: isDuration,
  'date-time': isDateTime,
  time: isFullTime,
  uuid: (value) => UUID.test(value),
  regex: isEcmaRegex,
  uri: isUri,
  'uri-reference': isUriReference,
  'uri-template': isUriTemplate,
  email: isEmail,
};

/**
 * Replaces ajv-formats' checks that are not linear in the input or that disagree with JSON
 * Schema 2020-12 (call after `addFormats`). @internal
 */
export function useStrictFormats(ajv: Ajv): void {
  for (const [name, validate] of Object.entries(STRICT_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  // ajv-formats' int64 accepts any integer (1e300 included).
  ajv.addFormat('int64', { type: 'number', validate: isInt64 });
}

/** The smallest signed 64-bit integer, -2^63 (a double exactly). */
const MIN_INT64 = -(2 ** 63);
/** 2^63, the first number past the signed 64-bit range. */
const INT64_END = 2 ** 63;

/**
 * OpenAPI's `int64`: an integer in [-2^63, 2^63). Checked on the parsed number: 2^63 itself is out
 * of range, so `9223372036854775807` (2^63 - 1, which `JSON.parse` rounds to 2^63) is refused too;
 * the largest accepted number is 2^63 - 1024 (the double below 2^63). Exact 64-bit values need a string.
 */
const isInt64 = (value: number): boolean => Number.isInteger(value) && value >= MIN_INT64 && value < INT64_END;
