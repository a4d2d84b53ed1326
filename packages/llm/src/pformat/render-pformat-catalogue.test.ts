import { describe, expect, it } from 'vitest';
import { renderPformatCatalogue } from './render-pformat-catalogue.js';

describe('renderPformatCatalogue', () => {
  it('renders each tool with its description, Call as line and slots', () => {
    const text = renderPformatCatalogue([
      {
        name: 'search',
        description: 'Search\n  the web.',
        parameters: {
          properties: {
            query: { type: 'string', description: 'What to\nlook for.' },
            mode: { type: 'string', enum: ['fast', 'deep'] },
            sites: { type: 'array', items: { type: 'string' } },
            limit: { type: 'integer' },
          },
          required: ['query'],
        },
      },
      { name: 'clock', description: '', parameters: {} },
    ]);
    expect(text).toBe(
      [
        '## Tools',
        '',
        '- search: Search the web.',
        '  Call as: search[0|<query>|1|<limit>|2|<mode>|3|<sites>]',
        '  0 <query> (string, required): What to look for.',
        '  1 <limit> (integer)',
        '  2 <mode> (string, one of "fast", "deep")',
        '  3 <sites> (array as JSON)',
        '',
        '- clock',
        '  Call as: clock[]',
      ].join('\n'),
    );
  });

  it('renders nothing for no tools', () => {
    expect(renderPformatCatalogue([])).toBe('');
  });
});
