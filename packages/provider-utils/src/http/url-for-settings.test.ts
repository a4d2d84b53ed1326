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

  it('reports two API versions or base URLs apart', () => {
    expect(urlForSettings('https://g.example/v1/models/m')).not.toBe(
      urlForSettings('https://g.example/v1beta/models/m'),
    );
  });

  it('drops the query of a string that is no URL', () => {
    expect(urlForSettings('/relative/path?key=SECRET')).toBe('/relative/path');
  });
});
