import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './create-openai-compatible.js';

// What the prefix tracker compares of the model (wireSettings): every model-side fact that changes
// the request on the wire, the URL and the profile fields the body is built from, never a key.
const settingsOf = (options: Partial<Parameters<typeof createOpenAICompatible>[0]>) =>
  JSON.stringify(
    createOpenAICompatible({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'sk-SECRET-0000', ...options })(
      'gpt-4o',
    ).wireSettings(),
  );

describe('OpenAI-compatible wireSettings', () => {
  it('changes with the profile fields sent on the wire and the base URL, and holds no key', () => {
    const base = settingsOf({});
    // parallel_tool_calls follows profile.parallelToolCalls
    expect(settingsOf({ profile: { parallelToolCalls: false } })).not.toBe(base);
    expect(settingsOf({ baseURL: 'http://127.0.0.1:1/v2' })).not.toBe(base);
    expect(settingsOf({})).toBe(base);
    expect(base).not.toContain('SECRET');
  });

  it('changes with the provider name (the providerOptions key the model reads)', () => {
    expect(settingsOf({ name: 'relay' })).not.toBe(settingsOf({ name: 'other' }));
  });
});
