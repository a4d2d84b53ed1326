import { describe, expect, it } from 'vitest';
import { createGoogle } from './create-google.js';

// What the prefix tracker compares of the model (wireSettings): every model-side fact that changes
// the request on the wire, the model URL (the API version in its path) included, never a key.
const settingsOf = (baseURL: string) =>
  JSON.stringify(createGoogle({ baseURL, apiKey: 'AIza-SECRET-0000' })('gemini-2.5-flash').wireSettings());

describe('Gemini wireSettings', () => {
  it('changes with the base URL (v1beta, v1), and holds no key', () => {
    const base = settingsOf('http://127.0.0.1:1/v1beta');
    expect(settingsOf('http://127.0.0.1:1/v1')).not.toBe(base);
    expect(settingsOf('http://127.0.0.1:1/v1beta')).toBe(base);
    expect(base).not.toContain('SECRET');
  });

  it('changes with the provider name (the providerOptions key the model reads)', () => {
    const named = (name?: string) =>
      JSON.stringify(
        createGoogle({ baseURL: 'http://127.0.0.1:1/v1beta', apiKey: 'k', name })('gemini-2.5-flash').wireSettings(),
      );
    expect(named('relay')).not.toBe(named(undefined));
  });
});
