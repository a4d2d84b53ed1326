import { describe, expect, it } from 'vitest';
import { createPformatRegistry } from '../pformat/create-pformat-registry.js';
import { parseCodeCallBody } from './parse-code-call-body.js';
import { renderCodeProtocol } from './render-code-protocol.js';

const registry = createPformatRegistry([
  {
    name: 'search',
    description: '',
    parameters: { properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] },
  },
]);

describe('renderCodeProtocol', () => {
  it.each(['python', 'typescript'] as const)('shows a %s example the parser accepts in that language', (language) => {
    const text = renderCodeProtocol(language);
    const example = /<tool_call>([^<]+)<\/tool_call>/.exec(text)?.[1] ?? '';
    expect(parseCodeCallBody(example, registry, { language })).toEqual([
      { name: 'search', arguments: { query: 'rust agents', limit: 5 } },
    ]);
  });

  it('explains literals, binding, several calls per tag and all-or-nothing', () => {
    const python = renderCodeProtocol('python');
    expect(python).toContain('Python function calls inside <tool_call></tool_call> tags');
    expect(python).toContain('Arguments must be literals');
    expect(python).toContain('positional arguments cannot follow keyword ones');
    expect(python).toContain('pass None');
    expect(python).toContain('one or more calls');
    expect(python).toContain('makes the whole tag be ignored');
    const typeScript = renderCodeProtocol('typescript');
    expect(typeScript).toContain('TypeScript function calls');
    expect(typeScript).toContain('one object whose keys are parameter names');
    expect(typeScript).toContain('pass null');
  });
});
