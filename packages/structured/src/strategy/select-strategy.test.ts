import { createModelProfile } from '@tiny/llm';
import { describe, expect, it } from 'vitest';
import { selectStrategy, strategyChain } from './select-strategy.js';

describe('selectStrategy', () => {
  it('auto: provider only when the profile declares json_schema output', () => {
    expect(selectStrategy('auto', createModelProfile({ structuredOutput: 'json_schema' }))).toBe('provider');
    expect(selectStrategy('auto', createModelProfile({ structuredOutput: 'json_object' }))).toBe('tool');
    expect(selectStrategy('auto', createModelProfile({ toolCalling: true }))).toBe('tool');
  });

  it('auto: prompted for a model with neither, never tool', () => {
    expect(selectStrategy('auto', createModelProfile({ toolCalling: false }))).toBe('prompted');
    expect(selectStrategy('auto', createModelProfile({ toolCalling: false, defaultStructuredMode: 'tool' }))).toBe(
      'prompted',
    );
  });

  it('auto: honours the profile default mode', () => {
    const prompted = createModelProfile({ structuredOutput: 'json_schema', defaultStructuredMode: 'prompted' });
    expect(selectStrategy('auto', prompted)).toBe('prompted');
    const tool = createModelProfile({ structuredOutput: 'json_schema', defaultStructuredMode: 'tool' });
    expect(selectStrategy('auto', tool)).toBe('tool');
  });

  it('explicit kinds are kept; jsonSchema is the provider strategy', () => {
    const profile = createModelProfile({ toolCalling: false });
    expect(selectStrategy('tool', profile)).toBe('tool');
    expect(selectStrategy('provider', profile)).toBe('provider');
    expect(selectStrategy('json_schema', profile)).toBe('provider');
    expect(selectStrategy('prompted', createModelProfile({ structuredOutput: 'json_schema' }))).toBe('prompted');
  });

  it('fallback chains: only auto, never tool for a model without tool calling', () => {
    expect(strategyChain('auto', createModelProfile({ structuredOutput: 'json_schema' }))).toEqual([
      'provider',
      'tool',
      'prompted',
    ]);
    expect(strategyChain('auto', createModelProfile({ structuredOutput: 'json_schema', toolCalling: false }))).toEqual([
      'provider',
      'prompted',
    ]);
    expect(strategyChain('provider', createModelProfile({ structuredOutput: 'json_schema' }))).toEqual(['provider']);
  });
});
