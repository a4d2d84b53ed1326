import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecret, requestSecrets } from './redact-secret.js';

describe('redactSecret', () => {
  it('replaces every occurrence, leaves short secrets and undefined text alone', () => {
    expect(redactSecret('key sk-abcd and sk-abcd again', 'sk-abcd')).toBe('key [redacted] and [redacted] again');
    expect(redactSecret('the cat', 'cat')).toBe('the cat');
    expect(redactSecret(undefined, 'sk-abcd')).toBeUndefined();
    expect(redactSecret('nothing', undefined)).toBe('nothing');
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
