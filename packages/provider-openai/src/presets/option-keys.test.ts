import { InvalidInputError } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../create-openai-compatible.js';
import { ollama } from './ollama.js';
import { openai } from './openai.js';

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(InvalidInputError.isInstance(error), String(error)).toBe(true);
    return (error as Error).message;
  }
  return 'accepted';
}

describe('provider option keys', () => {
  it('name an unknown key with the one it probably meant, before the missing-key check', () => {
    expect(message(() => openai({ apiKey: 'sk-x', baseUrl: 'http://127.0.0.1:1/v1' } as never))).toBe(
      'openai(): unknown option `baseUrl`; did you mean `baseURL`?',
    );
    expect(message(() => openai({ apikey: 'sk-x' } as never))).toBe(
      'openai(): unknown option `apikey`; did you mean `apiKey`?',
    );
    expect(message(() => ollama({ maxRetries: 2 } as never))).toContain('did you mean `limits.maxRetriesPerCall');
    expect(
      message(() => createOpenAICompatible({ baseURL: 'http://127.0.0.1:1/v1', structuredOutputs: true } as never)),
    ).toBe(
      "createOpenAICompatible: unknown option `structuredOutputs`; did you mean `profile: { structuredOutput: 'json_schema' }`?",
    );
  });

  it('check per-model settings once, when the model is made', () => {
    const provider = createOpenAICompatible({ baseURL: 'http://127.0.0.1:1/v1' });
    expect(message(() => provider('m', { extractThinkin: false } as never))).toBe(
      'openai-compatible("m"): unknown option `settings.extractThinkin`; did you mean `extractThinking`?',
    );
    expect(message(() => provider('m', { extractThinking: false }))).toBe('accepted');
  });

  it('refuse a malformed baseURL with InvalidInputError', () => {
    expect(message(() => createOpenAICompatible({ baseURL: 'api.example.com/v1' }))).toContain('absolute http(s) URL');
    expect(message(() => openai({ apiKey: 'sk-x', baseURL: 'ftp://x/v1' }))).toContain('http: or https:');
  });
});
