import { describe, expect, it } from 'vitest';
import { urlForSettings } from './url-for-settings.js';

describe('urlForSettings', () => {
  it('keeps host, path and the API version, and drops credentials', () => {
    expect(urlForSettings('https://x.openai.azure.com/openai/v1/responses?api-version=2025-04-01-preview')).toBe(
      'https://x.openai.azure.com/openai/v1/responses?api-version=2025-04-01-preview',
    );
    expect(
      urlForSettings('https://user:pw@g.example/v1beta/models/m:generateContent?key=AIzaSECRET&alt=sse#frag'),
    ).toBe('https://g.example/v1beta/models/m:generateContent?alt=sse');
    for (const name of ['api_key', 'access_token', 'sig', 'X-Amz-Signature', 'client_secret', 'password'])
      expect(urlForSettings(`https://h.example/p?${name}=SECRET&v=1`)).toBe('https://h.example/p?v=1');
  });

  it('drops credential-like names the second tester found, and reads `;` as a separator', () => {
    for (const name of [
      'pass',
      'passwd',
      'pwd',
      'pw',
      'user_pw',
      'jwt',
      'session',
      'sessionid',
      'bearer',
      'access',
      'cred',
      'k%65y',
    ])
      expect(urlForSettings(`https://h.example/p?${name}=SECRET&v=1`)).toBe('https://h.example/p?v=1');
    expect(urlForSettings('https://h.example/p?v=1;key=SECRET;alt=sse')).toBe('https://h.example/p?v=1&alt=sse');
    expect(urlForSettings('https://h.example/p?key=SECRET')).toBe('https://h.example/p');
    // names that only look alike stay: `upward` holds no `pw` name
    expect(urlForSettings('https://h.example/p?upward=1')).toBe('https://h.example/p?upward=1');
  });

  it('keeps path segments as they are (a secret in the path is not detected, documented)', () => {
    expect(urlForSettings('https://h.example/key=S/v1')).toBe('https://h.example/key=S/v1');
  });

  it('reports two API versions or base URLs apart', () => {
    expect(urlForSettings('https://g.example/v1/models/m')).not.toBe(
      urlForSettings('https://g.example/v1beta/models/m'),
    );
  });

  it('drops the query of a string that is no URL', () => {
    expect(urlForSettings('/relative/path?key=SECRET')).toBe('/relative/path');
  });
});
