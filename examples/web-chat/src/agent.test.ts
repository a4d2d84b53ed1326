import { describe, expect, it } from 'vitest';
import { modelFromEnv } from './agent.js';

describe('modelFromEnv', () => {
  it('uses the embedded scripted model when no endpoint is named', () => {
    const { model, description } = modelFromEnv({});
    expect(model.provider).toBe('scripted');
    expect(description).toContain('embedded scripted model');
  });

  it('uses an OpenAI-compatible endpoint named by OPENAI_BASE_URL, before any Anthropic variable', () => {
    const { model, description } = modelFromEnv({
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'qwen3:4b',
      ANTHROPIC_API_KEY: 'sk-ant-test',
    });
    expect(model.modelId).toBe('qwen3:4b');
    expect(model.provider).not.toBe('scripted');
    expect(description).toBe('qwen3:4b at http://127.0.0.1:11434/v1');
  });

  it('uses Claude with ANTHROPIC_API_KEY and a local Messages server with ANTHROPIC_BASE_URL alone', () => {
    const claude = modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant-test' });
    expect(claude.model.modelId).toBe('claude-haiku-4-5');
    expect(claude.description).not.toContain('sk-ant-test');
    const local = modelFromEnv({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080/v1' });
    expect(local.model.modelId).toBe('local');
    expect(local.description).toContain('http://127.0.0.1:8080/v1');
  });
});
