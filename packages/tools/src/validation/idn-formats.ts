import idnHostnameModule from 'idn-hostname';
import { compileLinearPattern } from './linear-regexp.js';

// idn-hostname is CommonJS; under NodeNext its default import is the module object.
const { isIdnHostname } = ((idnHostnameModule as unknown as { default?: typeof idnHostnameModule }).default ??
  idnHostnameModule) as typeof idnHostnameModule;

/*
 * The four JSON Schema 2020-12 formats ajv-formats does not know: `iri` and `iri-reference`
 * (RFC 3987), `idn-hostname` (RFC 5890-5893, checked by the idn-hostname package) and `idn-email`
 * (RFC 6531). The IRI grammar runs on the linear-time engine (RE2JS), so no input makes it
 * backtrack; every check refuses strings that are not well-formed UTF-16 (a lone surrogate has no
 * UTF-8 form).
 */

/** A surrogate that is not half of a pair (with the `u` flag, a pair is one code point). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** Whether `value` is well-formed UTF-16 (has a UTF-8 form). */
const wellFormed = (value: string): boolean => !LONE_SURROGATE.test(value);

/** A character class body from RFC 3987's `ucschar` (2.2). */
const UCSCHAR =
  '\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}' +
  '\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}' +
  '\\u{90000}-\\u{9FFFD}\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}';
/** RFC 3987's `iprivate`: allowed in the query only. */
const IPRIVATE = '\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}';
const PCT = '%[0-9A-Fa-f]{2}';
const SUB_DELIMS = "!$&'()*+,;=";
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** RFC 3986 3.2.2's nine forms of `IPv6address`. */
const IPV6 = `(?:(?:${H16}:){6}${LS32}|::(?:${H16}:){5}${LS32}|(?:${H16})?::(?:${H16}:){4}${LS32}|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}|(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}|(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}|(?:(?:${H16}:){0,4}${H16})?::${LS32}|(?:(?:${H16}:){0,5}${H16})?::${H16}|(?:(?:${H16}:){0,6}${H16})?::)`;
const IPVFUTURE = `[vV][0-9A-Fa-f]+\\.[\\-A-Za-z0-9._~${SUB_DELIMS}:]+`;
const SCHEME = '[A-Za-z][A-Za-z0-9+\\-.]*';

/**
 * RFC 3987 2.2's `IRI` and `IRI-reference` with `ucschar` and `iprivate` as given; with both
 * empty they are RFC 3986's `URI` and `URI-reference` (RFC 3987 is RFC 3986 plus those characters).
 */
function resourceGrammar(ucschar: string, iprivate: string): { absolute: string; reference: string } {
  /** `iunreserved / sub-delims` as one class body (`-` first: a literal). */
  const IUNRESERVED_SUB = `\\-A-Za-z0-9._~${ucschar}${SUB_DELIMS}`;
  const IPCHAR = `(?:[${IUNRESERVED_SUB}:@]|${PCT})`;
  const IHOST = `(?:\\[(?:${IPV6}|${IPVFUTURE})\\]|${IPV4}|(?:[${IUNRESERVED_SUB}]|${PCT})*)`;
  const IAUTHORITY = `(?:(?:[${IUNRESERVED_SUB}:]|${PCT})*@)?${IHOST}(?::[0-9]*)?`;
  const ISEGMENT = `${IPCHAR}*`;
  const ISEGMENT_NZ = `${IPCHAR}+`;
  const ISEGMENT_NZ_NC = `(?:[${IUNRESERVED_SUB}@]|${PCT})+`;
  const IPATH_ABEMPTY = `(?:/${ISEGMENT})*`;
  const IPATH_ABSOLUTE = `/(?:${ISEGMENT_NZ}(?:/${ISEGMENT})*)?`;
  const IPATH_ROOTLESS = `${ISEGMENT_NZ}(?:/${ISEGMENT})*`;
  const IPATH_NOSCHEME = `${ISEGMENT_NZ_NC}(?:/${ISEGMENT})*`;
  const IQUERY = `(?:\\?(?:${IPCHAR}|[${iprivate}/?])*)?`;
  const IFRAGMENT = `(?:#(?:${IPCHAR}|[/?])*)?`;
  const IHIER_PART = `(?://${IAUTHORITY}${IPATH_ABEMPTY}|${IPATH_ABSOLUTE}|${IPATH_ROOTLESS}|)`;
  const IRELATIVE_PART = `(?://${IAUTHORITY}${IPATH_ABEMPTY}|${IPATH_ABSOLUTE}|${IPATH_NOSCHEME}|)`;
  const absolute = `${SCHEME}:${IHIER_PART}${IQUERY}${IFRAGMENT}`;
  return { absolute, reference: `(?:${absolute}|${IRELATIVE_PART}${IQUERY}${IFRAGMENT})` };
}

/** RFC 3987 2.2 `IRI` and `IRI-reference` (`IRI / irelative-ref`). */
const { absolute: IRI, reference: IRI_REFERENCE } = resourceGrammar(UCSCHAR, IPRIVATE);
/** RFC 3986 `URI` and `URI-reference`. */
const { absolute: URI, reference: URI_REFERENCE } = resourceGrammar('', '');

let iriPattern: ReturnType<typeof compileLinearPattern> | undefined;
let iriReferencePattern: ReturnType<typeof compileLinearPattern> | undefined;

/** Whether `value` is an IRI (RFC 3987): a scheme, then the hierarchical part, query and fragment. */
export function isIri(value: string): boolean {
  iriPattern ??= compileLinearPattern(`^${IRI}$`);
  return wellFormed(value) && iriPattern.test(value);
}

let uriPattern: ReturnType<typeof compileLinearPattern> | undefined;
let uriReferencePattern: ReturnType<typeof compileLinearPattern> | undefined;

/** Whether `value` is a URI (RFC 3986 `URI`): ASCII only, a scheme, the hierarchical part, query and fragment. */
export function isUri(value: string): boolean {
  uriPattern ??= compileLinearPattern(`^${URI}$`);
  return uriPattern.test(value);
}

/** Whether `value` is a URI reference (RFC 3986 `URI-reference`): a URI or a relative reference. */
export function isUriReference(value: string): boolean {
  uriReferencePattern ??= compileLinearPattern(`^${URI_REFERENCE}$`);
  return uriReferencePattern.test(value);
}

/** Whether `value` is an IRI reference (RFC 3987): an IRI or a relative reference (`/a`, `#b`, `c`). */
export function isIriReference(value: string): boolean {
  iriReferencePattern ??= compileLinearPattern(`^${IRI_REFERENCE}$`);
  return wellFormed(value) && iriReferencePattern.test(value);
}

/**
 * Longest string handed to the IDNA check: a hostname's ASCII form has at most 253 octets, and
 * each code point (two UTF-16 units at most) takes at least one of them, so 1,024 units leaves
 * room for every valid name, ignorable code points aside. Longer strings are refused unread
 * (the punycode decoding behind the check is superlinear in a label's length).
 */
const MAX_IDN_HOSTNAME_UNITS = 1024;
/** The label separators of UTS #46 (2.3): full stop, ideographic, fullwidth and halfwidth ones. */
const TRAILING_SEPARATOR = /[.\u3002\uFF0E\uFF61]$/;

/** A non-ASCII character or an `xn--` A-label prefix: what only the full IDNA check can judge. */
const IDNA_INPUT = /[^\x00-\x7F]|xn--/i;

/**
 * Whether checking `value` as an IDN host name (or an address with such a domain) takes the full
 * IDNA check, about 100 µs: it has a non-ASCII character or an `xn--` label. Other strings are
 * answered by a linear ASCII scan. @internal
 */
export function needsIdna(value: string): boolean {
  return IDNA_INPUT.test(value);
}

/** An ASCII letter-digit-hyphen label (RFC 1123): 1 to 63 characters, no hyphen at either end. */
const LDH_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * The fast path of {@link isIdnHostnameFormat}: an ASCII name of LDH labels, none with `--` in
 * its third and fourth characters (so no `xn--` A-label to decode, RFC 5891 4.2.3.1), at most 253
 * characters, is an IDN host name as it is (UTS #46 only lowercases it). A few hundred
 * nanoseconds, where the full check takes about 100 µs (2 ms for 1,000 ASCII characters).
 */
function isPlainAsciiHostname(value: string): boolean {
  if (value.length > 253) return false;
  for (const label of value.split('.')) {
    if (!LDH_LABEL.test(label) || (label[2] === '-' && label[3] === '-')) return false;
  }
  return true;
}

/**
 * Whether `value` is an internationalized host name (RFC 5890-5893 with the UTS #46 mapping):
 * checked by the idn-hostname package (labels, punycode, contextual rules, bidi), plus: no
 * trailing dot (a name, not an absolute FQDN, as the JSON Schema test suite reads it) and at most
 * {@link MAX_IDN_HOSTNAME_UNITS} UTF-16 units.
 */
export function isIdnHostnameFormat(value: string): boolean {
  if (value.length === 0 || value.length > MAX_IDN_HOSTNAME_UNITS || !wellFormed(value)) return false;
  if (TRAILING_SEPARATOR.test(value)) return false;
  // ASCII without an A-label: valid exactly when it is plain LDH (200,000 generated ASCII names
  // agreed with the full check), so the expensive check never runs on it.
  if (!needsIdna(value)) return isPlainAsciiHostname(value);
  try {
    return isIdnHostname(value) === true;
  } catch {
    return false;
  }
}

/** RFC 5322 `atext` plus RFC 6531's UTF8-non-ascii (any non-ASCII code point). */
const ATOM = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u0080-\\u{10FFFF}]+";
/** RFC 5321 `Local-part` as RFC 6531 extends it: a dot-string or a quoted string. */
const LOCAL_PART = new RegExp(
  `^(?:${ATOM}(?:\\.${ATOM})*|"(?:[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E\\u0080-\\u{10FFFF}]|\\\\[\\x20-\\x7E])*")$`,
  'u',
);
/** RFC 5321 `address-literal`: `[IPv4]` or `[IPv6:...]` (general address literals are not accepted). */
let addressLiteral: ReturnType<typeof compileLinearPattern> | undefined;
/** RFC 5321 4.5.3.1.1: at most 64 octets in the local part. */
const MAX_LOCAL_OCTETS = 64;

/**
 * Whether `value` is an internationalized e-mail address (RFC 6531 `Mailbox`): a local part of
 * ASCII `atext` and any non-ASCII code point (dot-separated, or quoted), at most 64 UTF-8 octets,
 * `@`, then an {@link isIdnHostnameFormat} domain or an address literal.
 */
export function isIdnEmail(value: string): boolean {
  if (!wellFormed(value)) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (Buffer.byteLength(local, 'utf8') > MAX_LOCAL_OCTETS || !LOCAL_PART.test(local)) return false;
  if (domain.startsWith('[')) {
    addressLiteral ??= compileLinearPattern(`^\\[(?:${IPV4}|IPv6:${IPV6})\\]$`);
    return addressLiteral.test(domain);
  }
  return isIdnHostnameFormat(domain);
}
