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

  it('renders the declared return type from the output schema instead of string', () => {
    const weather: ToolSchema = {
      name: 'weather',
      description: 'Forecast for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: {
        type: 'object',
        properties: {
          celsius: { type: 'number' },
          conditions: { enum: ['sunny', 'rain'] },
          alerts: { type: 'array', items: { type: 'string' } },
        },
        required: ['celsius', 'conditions'],
      },
    };
    const count: ToolSchema = { name: 'count', parameters: {}, outputSchema: { type: 'integer' } };
    expect(renderCodeCatalogue([weather, count, tools[1] as ToolSchema], 'typescript')).toBe(
      [
        '## Tools',
        '',
        'function weather(city: string): { celsius: number; conditions: "sunny" | "rain"; alerts?: string[] };  // Forecast for a city.',
        'function count(): number;',
        'function clock(): string;  // Current time.',
      ].join('\n'),
    );
    expect(renderCodeCatalogue([weather, count, tools[1] as ToolSchema], 'python')).toBe(
      [
        '## Tools',
        '',
        'def weather(city: str) -> dict  # Forecast for a city.',
        'def count() -> int',
        'def clock() -> str  # Current time.',
      ].join('\n'),
    );
  });

  it('renders nothing for no tools', () => {
    expect(renderCodeCatalogue([], 'python')).toBe('');
  });
});
