import { describe, expect, it } from 'vitest';
import { createAnthropic } from './create-anthropic.js';

// What the prefix tracker compares of the model (wireSettings): every model-side fact that changes
// the request on the wire, the URL and the profile fields the body is built from, never a key.
const settingsOf = (options: Parameters<typeof createAnthropic>[0]) =>
  JSON.stringify(createAnthropic({ apiKey: 'sk-ant-SECRET-0000', ...options })('claude-sonnet-4-5').wireSettings());

describe('Anthropic wireSettings', () => {
  it('changes with the profile fields sent on the wire and the base URL, and holds no key', () => {
    const base = settingsOf({ baseURL: 'http://127.0.0.1:1/v1' });
    // disable_parallel_tool_use follows profile.parallelToolCalls
    expect(settingsOf({ baseURL: 'http://127.0.0.1:1/v1', profile: { parallelToolCalls: false } })).not.toBe(base);
    expect(settingsOf({ baseURL: 'http://127.0.0.1:2/v1' })).not.toBe(base);
    expect(settingsOf({ baseURL: 'http://127.0.0.1:1/v1' })).toBe(base);
    expect(base).not.toContain('SECRET');
  });

  it('changes with the provider name (the providerOptions key the model reads)', () => {
    const baseURL = 'http://127.0.0.1:1/v1';
    // a tester's find: resuming under createAnthropic({ name: 'relay' }) reads providerOptions.relay
    expect(settingsOf({ baseURL, name: 'relay' })).not.toBe(settingsOf({ baseURL }));
  });
});
