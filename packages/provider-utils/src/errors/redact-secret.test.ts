import { describe, expect, it } from 'vitest';
import { optionSecrets, REDACTED, redactCut, redactDeep, redactSecret, requestSecrets } from './redact-secret.js';
import { isSecretName } from './secret-name.js';

describe('redactSecret', () => {
  it('replaces every occurrence, leaves short secrets and undefined text alone', () => {
    expect(redactSecret('key sk-abcd and sk-abcd again', 'sk-abcd')).toBe('key [redacted] and [redacted] again');
    expect(redactSecret('the cat', 'cat')).toBe('the cat');
    expect(redactSecret(undefined, 'sk-abcd')).toBeUndefined();
    expect(redactSecret('nothing', undefined)).toBe('nothing');
  });
});

describe('redactSecret over escaped forms', () => {
  const key = 'AIzaSyTESTKEY-0123456789abcdef/SECRET';
  /** `key` with every `step`-th character written as `encode(character)`. */
  const spell = (encode: (unit: number) => string, step = 1) =>
    [...key].map((char, index) => (index % step === 0 ? encode(char.charCodeAt(0)) : char)).join('');
  const u = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

  it.each([
    ['every character as \\uXXXX', spell(u)],
    ['some characters as \\uXXXX, upper-case hex', spell((unit) => u(unit).toUpperCase().replace('\\U', '\\u'), 3)],
    ['the slash as \\/', key.replace('/', '\\/')],
    ['characters as URL %XX escapes', spell((unit) => `%${unit.toString(16).padStart(2, '0')}`, 2)],
  ])('finds the secret with %s', (_name, spelled) => {
    expect(spelled).not.toContain(key);
    // the escaped text decodes to the key: it is the key a reader of the body would see
    const body = `{"error":{"message":"API key ${spelled} not valid"}}`;
    if (!spelled.includes('%')) expect(JSON.parse(body).error.message).toBe(`API key ${key} not valid`);
    else expect(decodeURIComponent(spelled)).toBe(key);
    const redacted = redactSecret(body, key);
    expect(redacted).toBe(`{"error":{"message":"API key ${REDACTED} not valid"}}`);
  });

  it('leaves escapes that spell other text alone', () => {
    const text = '{"message":"caf\\u00e9 %20 \\/ AIzaSyTEST"}';
    expect(redactSecret(text, key)).toBe(text);
  });

  it('redacts a head of 12 characters or more of a longer secret: a secret cut by a limit leaves none', () => {
    expect(redactSecret('event pppAIzaSyTESTKEY-0123456 was cut', key)).toBe(`event ppp${REDACTED} was cut`);
    expect(redactSecret('event AIzaSyTESTKE', key)).toBe(`event ${REDACTED}`);
    expect(redactSecret('event AIzaSyTESTK', key)).toBe('event AIzaSyTESTK');
  });
});

describe('redactDeep', () => {
  it('scrubs every string, keys included, and keeps the shape (a __proto__ key stays a key)', () => {
    const details = JSON.parse(
      '[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","metadata":{"key":"sk-deep-secret-1","sk-deep-secret-1":1,"__proto__":{"n":[true,null,"x sk-deep-secret-1"]}}}]',
    ) as unknown;
    const out = redactDeep(details, ['sk-deep-secret-1']);
    expect(JSON.stringify(out)).not.toContain('sk-deep-secret-1');
    expect(out).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        metadata: JSON.parse('{"key":"[redacted]","[redacted]":1,"__proto__":{"n":[true,null,"x [redacted]"]}}'),
      },
    ]);
    expect(Object.getPrototypeOf((out as [{ metadata: object }])[0].metadata)).toBe(Object.prototype);
  });
});

describe('requestSecrets', () => {
  it('takes the API key, every header value given whole and by its pieces, and URL credentials', () => {
    const secrets = requestSecrets({
      apiKey: 'sk-key-0001',
      headers: {
        'x-api-key': 'HDRSECRET-9f8e7d6c',
        authorization: 'Token TOKSECRET-1234',
        cookie: 'sid=COOKIESECRET-55; theme=dark',
        'x-custom-auth': 'custom-credential',
      },
      baseURL: 'http://user:p%40ss-word@127.0.0.1/v1',
    });
    const text =
      'key sk-key-0001, x-api-key: HDRSECRET-9f8e7d6c, token TOKSECRET-1234, session COOKIESECRET-55, ' +
      'custom custom-credential, url user:p@ss-word / p%40ss-word';
    const redacted = redactSecret(text, secrets);
    for (const secret of [
      'sk-key-0001',
      'HDRSECRET',
      'TOKSECRET',
      'COOKIESECRET',
      'custom-credential',
      'p@ss-word',
      'p%40ss-word',
    ])
      expect(redacted).not.toContain(secret);
    // Short pieces of a header value (a cookie's `theme=dark`) are words, not secrets.
    expect(redactSecret('a dark theme', secrets)).toBe('a dark theme');
  });

  it('replaces a longer secret whole before one it contains', () => {
    expect(redactSecret('Token TOKSECRET-1234', ['TOKSECRET-1234', 'Token TOKSECRET-1234'])).toBe(REDACTED);
  });
});

describe('optionSecrets', () => {
  it('takes every string under a credential-like key, at any depth, whole and in pieces', () => {
    const secrets = optionSecrets({
      openai: {
        extraBody: { api_key: 'sk-body-0001', model: 'gpt-x', nested: [{ accessToken: 'Bearer TOKEN-abcdefgh' }] },
      },
      gateway: { auth: { user: 'someone', pass: ['PASS-1234'] }, temperature: 0.2 },
      session: 'sess-5678',
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'sk-body-0001',
        'Bearer TOKEN-abcdefgh',
        'TOKEN-abcdefgh',
        'someone',
        'PASS-1234',
        'sess-5678',
      ]),
    );
    // Values under ordinary names are no secrets (a model name would redact every message naming it).
    expect(secrets).not.toContain('gpt-x');
  });

  it('reads nothing dangerous: a throwing getter, a cycle and extreme depth are survived', () => {
    const cyclic: Record<string, unknown> = { token: 'TOKEN-cycle-1' };
    cyclic.self = cyclic;
    const hostile = {
      get apiKey(): string {
        throw new Error('no');
      },
    };
    let deep: unknown = { secret: 'DEEP-SECRET-1' };
    for (let level = 0; level < 10_000; level += 1) deep = { next: deep };
    expect(optionSecrets(cyclic)).toEqual(['TOKEN-cycle-1']);
    expect(optionSecrets(hostile)).toEqual([]);
    expect(optionSecrets(deep)).toEqual([]);
    expect(optionSecrets(undefined)).toEqual([]);
  });
});

describe('secrets a tester found left in errors (stop 43)', () => {
  it('takes the API key trimmed, as fetch sends it', () => {
    expect(requestSecrets({ apiKey: 'sk-key-with-newline\r\n' })).toContain('sk-key-with-newline');
  });

  it("takes an Authorization scheme's credential and a credential-named cookie from 4 characters, unquoted pieces", () => {
    const secrets = requestSecrets({
      headers: {
        authorization: 'Token 7f3kQ2p',
        cookie: 'session=Ab3x9Q; theme=dark',
        'proxy-authorization': 'Digest username="u", response="6629fa4965b52a6a"',
      },
    });
    expect(secrets).toEqual(expect.arrayContaining(['7f3kQ2p', 'Ab3x9Q', '6629fa4965b52a6a']));
    expect(secrets).not.toContain('dark');
  });

  it('takes a credential inside a JSON-valued header, a URL query token and a header given as a number', () => {
    const secrets = requestSecrets({
      headers: {
        'x-portkey-config': JSON.stringify({ provider: 'openai', api_key: 'sk-json-0123456789', password: 'pw-4x9q' }),
        'x-callback': 'https://hooks.local/cb?token=TOKEN-abc1&x=1',
        'x-custom-key': 48291337554466,
      },
    });
    expect(secrets).toEqual(expect.arrayContaining(['sk-json-0123456789', 'pw-4x9q', 'TOKEN-abc1', '48291337554466']));
  });

  it('redacts a secret echoed in another case, with JSON short escapes, UTF-8 percent escapes or a form plus', () => {
    expect(redactSecret('KEY SK-LIVE-ABCD1234', ['sk-live-abcd1234'])).toBe(`KEY ${REDACTED}`);
    expect(redactSecret('{"m":"pa\\"ss\\\\word\\t42"}', ['pa"ss\\word\t42'])).toBe(`{"m":"${REDACTED}"}`);
    expect(redactSecret('p%C3%A4ssw%c3%b6rd-geheim', ['pässwörd-geheim'])).toBe(REDACTED);
    expect(redactSecret('pw=correct+horse+battery', ['correct horse battery'])).toBe(`pw=${REDACTED}`);
    expect(redactSecret('<p>bad pass&amp;word&lt;1&#x2F;2&#39;x</p>', ["pass&word<1/2'x"])).toBe(
      `<p>bad ${REDACTED}</p>`,
    );
  });

  it('never throws for a secret too long for a pattern, and still redacts it', () => {
    const long = `L${'x'.repeat(200_000)}END`;
    expect(redactSecret(`got ${long} \\u0041`, [long])).toBe(`got ${REDACTED} \\u0041`);
  });

  it('cuts after scrubbing and leaves no head of a secret at the cut', () => {
    expect(redactCut(`${'a'.repeat(10)}sk-live-abcd1234`, ['sk-live-abcd1234'], 18)).toBe(`${'a'.repeat(10)}[redacte`);
    expect(redactCut(`${'a'.repeat(10)}sk-live-abcd1234`, ['sk-live-abcd1234'], 10 + 7)).toBe(
      `${'a'.repeat(10)}[redact`,
    );
    expect(redactCut('abc sk-live', ['sk-live-abcd1234'], 100)).toBe('abc ');
    expect(redactCut('plain text', ['sk-live-abcd1234'], 100)).toBe('plain text');
  });

  it('reads option values as sent, numbers and known credential formats included', () => {
    const secrets = optionSecrets({
      any: {
        api_key: 48291337,
        max_tokens: 1024,
        wrapped: { apiKey: { toJSON: () => 'wrapped-secret-1234' } },
        note: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
        proxy_url: 'http://user:proxy-pass-99@proxy.local:8080',
        relay: 'https://relay:relay-pass-77@relay.local',
      },
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        '48291337',
        'wrapped-secret-1234',
        'ghp_abcdefghijklmnopqrstuvwxyz0123',
        'relay-pass-77',
      ]),
    );
    expect(secrets).not.toContain('1024');
  });

  it.each([
    ['pat', true],
    ['sasUrl', true],
    ['connectionString', true],
    ['client_assertion', true],
    ['totp', true],
    ['webhookUrl', true],
    ['githubPat', true],
    ['path', false],
    ['pattern', false],
    ['temperature', false],
    ['model', false],
  ])('isSecretName(%s) is %s', (name, expected) => {
    expect(isSecretName(name)).toBe(expected);
  });
});
