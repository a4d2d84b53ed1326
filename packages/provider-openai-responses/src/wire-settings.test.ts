import { describe, expect, it } from 'vitest';
import { createOpenAIResponses } from './create-openai-responses.js';

// What the prefix tracker compares of the model (wireSettings): every model-side fact that changes
// the request on the wire, the URL (Azure's api-version query included) and the profile fields the
// body is built from, never a key.
const settingsOf = (options: Parameters<typeof createOpenAIResponses>[0]) =>
  JSON.stringify(createOpenAIResponses({ apiKey: 'sk-SECRET-0000', ...options })('gpt-5').wireSettings());

describe('Responses wireSettings', () => {
  it('changes with the API version, the profile fields sent on the wire and the base URL, and holds no key', () => {
    const baseURL = 'http://127.0.0.1:1/v1';
    const base = settingsOf({ baseURL, apiVersion: '2025-03-01-preview' });
    expect(settingsOf({ baseURL, apiVersion: '2025-04-01-preview' })).not.toBe(base);
    // parallel_tool_calls follows profile.parallelToolCalls
    expect(settingsOf({ baseURL, apiVersion: '2025-03-01-preview', profile: { parallelToolCalls: false } })).not.toBe(
      base,
    );
    expect(settingsOf({ baseURL, apiVersion: '2025-03-01-preview' })).toBe(base);
    expect(base).not.toContain('SECRET');
  });

  it('changes with the provider name (the providerOptions key the model reads)', () => {
    const baseURL = 'http://127.0.0.1:1/v1';
    expect(settingsOf({ baseURL, name: 'relay' })).not.toBe(settingsOf({ baseURL }));
  });
});
