import { describe, expect, it } from 'vitest';
import { createModelProfile } from './model-profile.js';
import { addUsage } from './usage.js';

describe('createModelProfile', () => {
  it('defaults to a tool-calling model without native structured output', () => {
    expect(createModelProfile()).toEqual({
      toolCalling: true,
      parallelToolCalls: true,
      structuredOutput: 'none',
      toolFormats: ['json'],
      defaultStructuredMode: 'tool',
    });
  });

  it('derives the structured mode: provider for json_schema, tool with tool calling, else provider', () => {
    expect(createModelProfile({ structuredOutput: 'json_schema' }).defaultStructuredMode).toBe('provider');
    expect(createModelProfile({ structuredOutput: 'json_object' }).defaultStructuredMode).toBe('tool');
    expect(createModelProfile({ toolCalling: false, structuredOutput: 'json_object' }).defaultStructuredMode).toBe(
      'provider',
    );
    expect(createModelProfile({ toolCalling: false }).defaultStructuredMode).toBe('provider');
  });

  it('keeps where system messages go, and leaves it out when not given', () => {
    expect(createModelProfile({ systemMessages: 'hoisted' }).systemMessages).toBe('hoisted');
    expect('systemMessages' in createModelProfile()).toBe(false);
  });

  it('follows tool calling for parallel calls and native formats', () => {
    expect(createModelProfile({ toolCalling: false })).toMatchObject({ parallelToolCalls: false, toolFormats: [] });
  });

  it('keeps the given fields, including a schema transform', () => {
    const profile = createModelProfile({
      toolCalling: false,
      parallelToolCalls: false,
      toolFormats: ['xml'],
      defaultStructuredMode: 'prompted',
      schemaTransform: { type: 'gemini_compat' },
    });
    expect(profile).toEqual({
      toolCalling: false,
      parallelToolCalls: false,
      structuredOutput: 'none',
      toolFormats: ['xml'],
      defaultStructuredMode: 'prompted',
      schemaTransform: { type: 'gemini_compat' },
    });
  });
});

describe('addUsage', () => {
  it('adds reported fields and leaves unreported ones absent', () => {
    expect(addUsage({ inputTokens: 2, reasoningTokens: 1 }, { inputTokens: 3, outputTokens: 4 })).toEqual({
      inputTokens: 5,
      outputTokens: 4,
      reasoningTokens: 1,
    });
    expect(addUsage({}, {})).toEqual({});
  });
});
