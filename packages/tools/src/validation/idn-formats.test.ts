import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkSchema, createValidator, SchemaCompileFailure } from './create-validator.js';
import { isIdnEmail, isIdnHostnameFormat, isIri, isIriReference } from './idn-formats.js';

/**
 * Every string case of the JSON-Schema-Test-Suite's optional format tests for these four formats:
 * tests/draft2020-12/optional/format/{iri,iri-reference,idn-email,idn-hostname}.json at
 * json-schema-org/JSON-Schema-Test-Suite 44401e0c046704b476ec9d2e2fccdaee618f259d
 * (data, expected validity, the suite's description; invisible characters written as escapes).
 */
const suite: Record<string, [string, boolean, string][]> = {
  iri: [
    ['http://ƒøø.ßår/?∂éœ=πîx#πîüx', true, 'a valid IRI with anchor tag'],
    ['http://ƒøø.com/blah_(wîkïpédiå)_blah#ßité-1', true, 'a valid IRI with anchor tag and parentheses'],
    ['http://ƒøø.ßår/?q=Test%20URL-encoded%20stuff', true, 'a valid IRI with URL-encoded stuff'],
    ["http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true, 'a valid IRI with many special characters'],
    ['http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]', true, 'a valid IRI based on IPv6'],
    ['http://2001:0db8:85a3:0000:0000:8a2e:0370:7334', false, 'an IPv6 address without enclosing brackets is invalid'],
    ['/abc', false, 'an invalid relative IRI Reference'],
    ['\\\\WINDOWS\\filëßåré', false, 'an invalid IRI'],
    ['âππ', false, 'an invalid IRI though valid IRI reference'],
    ['http://[::ffff:192.168.0.01]', false, 'an IPv6 host whose embedded IPv4 has a leading zero is invalid'],
    ['http://[2001:db8::1]', true, 'a valid IRI with a compressed IPv6 host'],
    ['http://ƒøø.ßår/\n', false, 'a trailing newline after a valid IRI is invalid'],
    ['http://[V1.fe]', true, 'an IPvFuture host with an uppercase version letter is valid'],
    ['http://192.168.0.1/p', true, 'a valid IRI with an IPv4 host'],
    ['urn:example:resource', true, 'a valid IRI with no authority and a rootless path'],
    ['file:/etc/hosts', true, 'a valid IRI with no authority and an absolute path'],
    ['http://ƒøø.ßår/𐌀', true, 'a valid IRI with a supplementary-plane character in the path'],
    ['http://ƒøø.ßår/?q=\u{F0000}', true, 'a valid IRI with a supplementary-plane private-use char in query'],
  ],
  'iri-reference': [
    ['http://ƒøø.ßår/?∂éœ=πîx#πîüx', true, 'a valid IRI'],
    ['//ƒøø.ßår/?∂éœ=πîx#πîüx', true, 'a valid protocol-relative IRI Reference'],
    ['/âππ', true, 'a valid relative IRI Reference'],
    ['\\\\WINDOWS\\filëßåré', false, 'an invalid IRI Reference'],
    ['âππ', true, 'a valid IRI Reference'],
    ['#ƒrägmênt', true, 'a valid IRI fragment'],
    ['#ƒräg\\mênt', false, 'an invalid IRI fragment'],
  ],
  'idn-email': [
    ['실례@실례.테스트', true, 'a valid idn e-mail (example@example.test in Hangul)'],
    ['2962', false, 'an invalid e-mail/idn e-mail address'],
    ['joe.bloggs@example.com', true, 'a valid e-mail address'],
    ['δοκιμή@example.com', true, 'a non-ASCII local part with an ASCII domain is valid'],
    ['"δοκιμή"@example.com', true, 'a non-ASCII quoted local part is valid'],
    ['user@cafe\u{301}.com', true, 'a domain label that is not in Unicode NFC is valid'],
    ['cafe\u{301}@example.com', true, 'a local part that is not in Unicode NFC is valid'],
    ['\u{85}@example.com', true, 'a C1 control in the local part is valid'],
    ['\u{FFFF}@example.com', true, 'a noncharacter in the local part is valid'],
    [
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.com',
      true,
      'a local part at the 64-octet limit is valid',
    ],
    ['user＠example.com', false, 'a fullwidth commercial at is not a local-part separator'],
    ['𝕏@example.com', true, 'a local part with a supplementary-plane character is valid'],
  ],
  'idn-hostname': [
    ['실례.테스트', true, 'a valid host name (example.test in Hangul)'],
    ['\u{302E}실례.테스트', false, 'illegal first char U+302E Hangul single dot tone mark'],
    ['실\u{302E}례.테스트', false, 'contains illegal char U+302E Hangul single dot tone mark'],
    [
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      true,
      'a single label of 63 characters is valid',
    ],
    [
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      false,
      'a single label of 64 characters is too long',
    ],
    ['-> $1.00 <--', false, 'invalid label, correct Punycode'],
    ['xn--ihqwcrb4cv8a8dqg056pqjye', true, 'valid Chinese Punycode'],
    ['xn--X', false, 'invalid Punycode'],
    ['XN--aa---o47jg78q', false, 'U-label contains "--" in the 3rd and 4th position'],
    ['-hello', false, 'U-label starts with a dash'],
    ['hello-', false, 'U-label ends with a dash'],
    ['-hello-', false, 'U-label starts and ends with a dash'],
    ['\u{903}hello', false, 'Begins with a Spacing Combining Mark'],
    ['\u{300}hello', false, 'Begins with a Nonspacing Mark'],
    ['\u{488}hello', false, 'Begins with an Enclosing Mark'],
    ['ßς་〇', true, 'Exceptions that are PVALID, left-to-right chars'],
    ['۽۾', true, 'Exceptions that are PVALID, right-to-left chars'],
    ['ـߺ', false, 'Exceptions that are DISALLOWED, right-to-left chars'],
    ['〱〲〳〴〵\u{302E}\u{302F}〻', false, 'Exceptions that are DISALLOWED, left-to-right chars'],
    ['a·l', false, "MIDDLE DOT with no preceding 'l'"],
    ['·l', false, 'MIDDLE DOT with nothing preceding'],
    ['l·a', false, "MIDDLE DOT with no following 'l'"],
    ['l·', false, 'MIDDLE DOT with nothing following'],
    ['l·l', true, "MIDDLE DOT with surrounding 'l's"],
    ['α͵S', false, 'Greek KERAIA not followed by Greek'],
    ['α͵', false, 'Greek KERAIA not followed by anything'],
    ['α͵β', true, 'Greek KERAIA followed by Greek'],
    ['A׳ב', false, 'Hebrew GERESH not preceded by Hebrew'],
    ['׳ב', false, 'Hebrew GERESH not preceded by anything'],
    ['א׳ב', true, 'Hebrew GERESH preceded by Hebrew'],
    ['A״ב', false, 'Hebrew GERSHAYIM not preceded by Hebrew'],
    ['״ב', false, 'Hebrew GERSHAYIM not preceded by anything'],
    ['א״ב', true, 'Hebrew GERSHAYIM preceded by Hebrew'],
    ['def・abc', false, 'KATAKANA MIDDLE DOT with no Hiragana, Katakana, or Han'],
    ['・', false, 'KATAKANA MIDDLE DOT with no other characters'],
    ['・ぁ', true, 'KATAKANA MIDDLE DOT with Hiragana'],
    ['・ァ', true, 'KATAKANA MIDDLE DOT with Katakana'],
    ['・丈', true, 'KATAKANA MIDDLE DOT with Han'],
    ['ب٠۰', false, 'Arabic-Indic digits mixed with Extended Arabic-Indic digits'],
    ['ب٠ب', true, 'Arabic-Indic digits not mixed with Extended Arabic-Indic digits'],
    ['۰0', true, 'Extended Arabic-Indic digits not mixed with Arabic-Indic digits'],
    ['क\u{200D}ष', false, 'ZERO WIDTH JOINER not preceded by Virama'],
    ['\u{200D}ष', false, 'ZERO WIDTH JOINER not preceded by anything'],
    ['क\u{94D}\u{200D}ष', true, 'ZERO WIDTH JOINER preceded by Virama'],
    ['क\u{94D}\u{200C}ष', true, 'ZERO WIDTH NON-JOINER preceded by Virama'],
    ['بي\u{200C}بي', true, 'ZERO WIDTH NON-JOINER not preceded by Virama but matches regexp'],
    ['hostname', true, 'single label'],
    ['host-name', true, 'single label with hyphen'],
    ['h0stn4me', true, 'single label with digits'],
    ['1host', true, 'single label starting with digit'],
    ['hostnam3', true, 'single label ending with digit'],
    ['', false, 'empty string'],
    ['क\u{94D}\u{200C}षx\u{200C}y', false, 'zero width non-joiner must pass at every occurrence'],
    ['0a.א', false, 'Bidi domain name with a digit-first label is invalid'],
    ['0ا', false, 'label starting with a digit before a right-to-left letter is invalid'],
    ['aא', false, 'left-to-right label containing a right-to-left letter is invalid'],
    ['א0٠', false, 'right-to-left label mixing both digit types is invalid'],
    ['xn--7a', false, 'A-label that decodes to a disallowed code point is invalid'],
    ['xn--0ca24w', false, 'A-label that decodes to a Bidi rule violation is invalid'],
    [
      'üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü',
      false,
      'a U-label whose A-label form is longer than 63 octets is invalid',
    ],
    ['a..b', false, 'empty label between two dots is invalid'],
    [
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      false,
      'a name longer than 253 characters is invalid',
    ],
    ['xn--example-', false, 'A-label that decodes to only ASCII is invalid'],
    ['xn---9uc', false, 'non-canonical Punycode that does not re-encode to itself is invalid'],
    ['.', false, 'single dot'],
    ['。', false, 'single ideographic full stop'],
    ['．', false, 'single fullwidth full stop'],
    ['｡', false, 'single halfwidth ideographic full stop'],
    ['a.b', true, 'dot as label separator'],
    ['a。b', true, 'ideographic full stop as label separator'],
    ['a．b', true, 'fullwidth full stop as label separator'],
    ['a｡b', true, 'halfwidth ideographic full stop as label separator'],
    ['.example', false, 'leading dot'],
    ['。example', false, 'leading ideographic full stop'],
    ['．example', false, 'leading fullwidth full stop'],
    ['｡example', false, 'leading halfwidth ideographic full stop'],
    ['example.', false, 'trailing dot'],
    ['example。', false, 'trailing ideographic full stop'],
    ['example．', false, 'trailing fullwidth full stop'],
    ['example｡', false, 'trailing halfwidth ideographic full stop'],
    [
      'παράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπα.com',
      true,
      'label too long if separator ignored (full stop)',
    ],
    [
      'παράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπα。com',
      true,
      'label too long if separator ignored (ideographic full stop)',
    ],
    [
      'παράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπα．com',
      true,
      'label too long if separator ignored (fullwidth full stop)',
    ],
    [
      'παράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπαράδειγμαπα｡com',
      true,
      'label too long if separator ignored (halfwidth ideographic full stop)',
    ],
  ],
};

describe('the 2020-12 formats ajv-formats leaves out', () => {
  for (const [format, cases] of Object.entries(suite)) {
    const validator = createValidator({ type: 'string', format });
    it.each(cases)(`${format}: %j is valid: %s (%s)`, (data, valid) => {
      expect(validator.validate(data).ok).toBe(valid);
      expect(validator.test(data)).toBe(valid);
    });
  }

  it('reports a failed format as a format issue and leaves other types alone', () => {
    const validator = createValidator({ type: 'object', properties: { home: { format: 'iri' } } });
    expect(validator.validate({ home: 'no scheme' })).toEqual({
      ok: false,
      issues: [{ path: '/home', keyword: 'format', message: 'must match format "iri"' }],
    });
    expect(validator.validate({ home: 12 }).ok).toBe(true);
  });

  it('refuses lone surrogates, which have no UTF-8 form', () => {
    expect(isIri('http://a/\uD800')).toBe(false);
    expect(isIriReference('\uDC00')).toBe(false);
    expect(isIdnHostnameFormat('a\uD800b')).toBe(false);
    expect(isIdnEmail('\uD800@example.com')).toBe(false);
    expect(isIri('http://a/\u{1F600}')).toBe(true);
  });

  it('checks address literals and the 64-octet local part of idn-email', () => {
    expect(isIdnEmail('joe@[192.168.0.1]')).toBe(true);
    expect(isIdnEmail('joe@[IPv6:2001:db8::1]')).toBe(true);
    expect(isIdnEmail('joe@[300.1.1.1]')).toBe(false);
    expect(isIdnEmail('"a@b"@example.com')).toBe(true);
    // 32 two-octet characters are 64 octets; one more is past the limit.
    expect(isIdnEmail(`${'é'.repeat(32)}@example.com`)).toBe(true);
    expect(isIdnEmail(`${'é'.repeat(32)}a@example.com`)).toBe(false);
  });

  it('refuses long hostile strings without reading past the limits', () => {
    expect(isIdnHostnameFormat(`xn--${'a'.repeat(100_000)}`)).toBe(false);
    expect(isIdnHostnameFormat('a.'.repeat(50_000))).toBe(false);
    expect(isIdnEmail(`${'a'.repeat(100_000)}@example.com`)).toBe(false);
    expect(isIri(`a:${'/'.repeat(100_000)}\u0000`)).toBe(false);
    expect(isIriReference(`${'%2'.repeat(50_000)}%`)).toBe(false);
  });
});

describe('a format tiny does not know', () => {
  it('refuses the schema with a typed error naming the format, at registration and at compile', () => {
    const schema = { type: 'object', properties: { body: { type: 'string', format: 'textarea' } } };
    for (const attempt of [() => checkSchema(schema), () => createValidator(structuredClone(schema))]) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(SchemaCompileFailure.isInstance(caught)).toBe(true);
      expect((caught as SchemaCompileFailure).format).toBe('textarea');
      expect((caught as SchemaCompileFailure).message).toContain('unknown format "textarea"');
    }
  });

  it('allows an unknown format beside a pattern, which is enforced (as Zod 4 writes cuid)', () => {
    const validator = createValidator({ type: 'string', format: 'cuid', pattern: '^c[a-z0-9]{8,}$' });
    expect(validator.validate('cjld2cjxh0000qzrmn831i7rn').ok).toBe(true);
    expect(validator.validate('not a cuid')).toEqual({
      ok: false,
      issues: [{ path: '', keyword: 'pattern', message: 'must match pattern "^c[a-z0-9]{8,}$"' }],
    });
    const zodShaped = z.toJSONSchema(z.object({ id: z.string().cuid(), phone: z.e164() }));
    expect(() => checkSchema(zodShaped as Record<string, unknown>)).not.toThrow();
    expect(
      createValidator(zodShaped as Record<string, unknown>).validate({ id: 'nope', phone: '+4712345678' }).ok,
    ).toBe(false);
  });

  it('reads format only where a schema is: a property named format, or format in data, is no format', () => {
    expect(() =>
      checkSchema({
        type: 'object',
        properties: { format: { type: 'string' } },
        default: { format: 'anything' },
        enum: [{ format: 'anything' }],
      }),
    ).not.toThrow();
  });
});
