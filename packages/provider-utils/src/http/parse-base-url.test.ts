import { InvalidInputError } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { parseBaseURL } from './parse-base-url.js';

const options = { example: 'https://api.example.com/v1', path: '/messages' };

describe('parseBaseURL', () => {
  it('takes an absolute http(s) URL', () => {
    expect(parseBaseURL('http://127.0.0.1:8080/v1', 'createX', options).href).toBe('http://127.0.0.1:8080/v1');
  });
  it.each([
    [undefined, /such as "https:\/\/api.example.com\/v1", got undefined/],
    ['  ', /absolute http\(s\) URL/],
    ['api.example.com/v1', /such as "https:\/\/api.example.com\/v1", got "api.example.com\/v1"/],
    ['ftp://x/v1', /must use http: or https:/],
    ['https://x/v1?key=1', /must not carry a query or fragment \(the adapter appends \/messages\)/],
    ['http://user:URLSECRET-123@127.0.0.1:1/v1', /must not carry credentials .*got "http:\/\/\[redacted\]@127/],
    ['http://user:URLSECRET-123@127.0.0.1:1/v1?q=1', /must not carry a query or fragment .*\[redacted\]@/],
    // A password with an unescaped `/`, `?` or `#` does not parse; no scheme; a key in the query.
    ['http://bob:URLSECRET-1/x@127.0.0.1/v1', /got "http:\/\/\[redacted\]@127/],
    ['http://bob:URLSECRET-1?x@127.0.0.1/v1', /got "http:\/\/\[redacted\]@127/],
    ['bob:URLSECRET-123@host/v1', /must use http: or https:, got "bob:" in "bob:\[redacted\]@host/],
    ['https://x/v1?api-key=URLSECRET-123&v=2', /got "https:\/\/x\/v1\?api-key=\[redacted\]&v=2"/],
    [new URL('http://bob:URLSECRET-123@host/v1'), /URL string .*a URL object \("http:\/\/\[redacted\]@host\/v1"\)/],
    [{ url: 'http://bob:URLSECRET-123@host/v1' }, /got a value of type object/],
  ])('refuses %j with an InvalidInputError saying why', (value, reason) => {
    try {
      parseBaseURL(value, 'createX', options);
      expect.unreachable();
    } catch (error) {
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(reason);
      expect((error as Error).message).not.toContain('URLSECRET');
    }
  });
});
