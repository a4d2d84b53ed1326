import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderCodeCatalogue } from './render-code-catalogue.js';

const tools: ToolSchema[] = [
  {
    name: 'search',
    description: 'Search the web.',
    parameters: { properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] },
  },
  { name: 'clock', description: 'Current time.', parameters: {} },
];

describe('renderCodeCatalogue', () => {
  it('lists Python signatures under ## Tools', () => {
    expect(renderCodeCatalogue(tools, 'python')).toBe(
      '## Tools\n\ndef search(query: str, limit: int = None) -> str  # Search the web.\ndef clock() -> str  # Current time.',
    );
  });

  it('lists TypeScript signatures under ## Tools', () => {
    expect(renderCodeCatalogue(tools, 'typescript')).toBe(
      '## Tools\n\nfunction search(query: string, limit?: number): string;  // Search the web.\nfunction clock(): string;  // Current time.',
    );
  });

  it('renders nothing for no tools', () => {
    expect(renderCodeCatalogue([], 'python')).toBe('');
  });
});
