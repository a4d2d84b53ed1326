import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../create-openai-compatible.js';

describe('wireSettings', () => {
  it('is the model id and the resolved wire settings, without the key or headers', () => {
    const provider = createOpenAICompatible({
      baseURL: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-wire-secret',
      headers: { 'x-relay-token': 'relay-secret' },
    });
    const plain = JSON.stringify(provider('qwen3:4b').wireSettings());
    expect(plain).toContain('qwen3:4b');
    expect(plain).not.toContain('sk-wire-secret');
    expect(plain).not.toContain('relay-secret');
    const other = JSON.stringify(provider('qwen3:4b', { maxTokensField: 'max_completion_tokens' }).wireSettings());
    expect(other).toContain('max_completion_tokens');
    expect(other).not.toBe(plain);
  });
});
