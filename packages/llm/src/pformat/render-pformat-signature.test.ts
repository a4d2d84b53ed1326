import { describe, expect, it } from 'vitest';
import { renderPformatSignature } from './render-pformat-signature.js';

describe('renderPformatSignature', () => {
  it('writes slots with angle-bracket placeholders, required first', () => {
    const tool = {
      name: 'search',
      description: '',
      parameters: {
        properties: { limit: { type: 'integer' }, query: { type: 'string' }, after: {} },
        required: ['query'],
      },
    };
    expect(renderPformatSignature(tool)).toBe('search[0|<query>|1|<after>|2|<limit>]');
  });

  it('writes `name[]` for a tool without parameters', () => {
    expect(renderPformatSignature({ name: 'clock', description: '', parameters: { type: 'object' } })).toBe('clock[]');
  });
});
