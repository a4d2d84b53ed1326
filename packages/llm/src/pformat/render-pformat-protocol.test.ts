import { describe, expect, it } from 'vitest';
import { createPformatRegistry } from './create-pformat-registry.js';
import { parsePformatBody } from './parse-pformat-body.js';
import { renderPformatProtocol } from './render-pformat-protocol.js';

describe('renderPformatProtocol', () => {
  const text = renderPformatProtocol();

  it('covers placeholders, empty calls, retraction, escapes, rejection, one call per tag and the JSON form', () => {
    expect(text).toContain('<name>');
    expect(text).toContain('`name[]`');
    expect(text).toContain('An empty value removes');
    expect(text).toContain('`\\|` for `|`, `\\]` for `]` and `\\\\` for `\\`');
    expect(text).toContain('rejected as a whole');
    expect(text).toContain('exactly one call in each <tool_call> tag');
    expect(text).toContain('<tool_call>{"name": "search", "arguments": {');
  });

  it('shows an example the parser accepts', () => {
    const registry = createPformatRegistry([
      {
        name: 'search',
        description: '',
        parameters: {
          properties: { query: { type: 'string' }, limit: { type: 'integer' } },
          required: ['query', 'limit'],
        },
      },
    ]);
    const example = /<tool_call>(search\[[^\n<]*\])<\/tool_call>/.exec(text)?.[1] ?? '';
    expect(parsePformatBody(example, registry)).toEqual({
      name: 'search',
      arguments: { query: 'rust agents', limit: 5 },
    });
  });
});
