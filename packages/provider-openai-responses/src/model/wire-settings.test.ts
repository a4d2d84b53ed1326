import { describe, expect, it } from 'vitest';
import { createOpenAIResponses } from '../create-openai-responses.js';

describe('wireSettings', () => {
  it('is the model id and the model-level provider options, read afresh, without the key', () => {
    const include = ['reasoning.encrypted_content'];
    const model = createOpenAIResponses({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-wire-secret' })('gpt-5.1', {
      providerOptions: { include },
    });
    const before = JSON.stringify(model.wireSettings());
    expect(before).toContain('gpt-5.1');
    expect(before).toContain('reasoning.encrypted_content');
    expect(before).not.toContain('sk-wire-secret');
    include.push('web_search_call.action.sources');
    expect(JSON.stringify(model.wireSettings())).not.toBe(before);
  });
});
