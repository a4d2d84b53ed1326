import { describe, expect, it } from 'vitest';
import { optionSecrets, REDACTED, redactDeep, redactSecret, requestSecrets } from './redact-secret.js';

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
    const text = '{"message":"caf\\u00e9 %20 \\/ AIzaSyTESTKEY"}';
    expect(redactSecret(text, key)).toBe(text);
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
