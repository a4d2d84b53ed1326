import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryToolCall } from '../pformat/arbitrary-tool-call.test-helper.js';
import { createPformatRegistry } from '../pformat/create-pformat-registry.js';
import { parseCodeCallBody } from './parse-code-call-body.js';
import { renderPythonCall, renderTypeScriptCall } from './render-code-call.js';

const registry = createPformatRegistry([
  {
    name: 'search',
    description: '',
    parameters: { properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
  },
]);

describe('parseCodeCallBody properties', () => {
  it('round-trips random tools and valid arguments written as Python', () => {
    fc.assert(
      fc.property(
        arbitraryToolCall({ emptyStrings: true }),
        fc.constantFrom(undefined, 'python' as const),
        ({ tool, args }, language) => {
          const body = renderPythonCall(tool.name, args);
          expect(parseCodeCallBody(body, createPformatRegistry([tool]), { language })).toEqual([
            { name: tool.name, arguments: args },
          ]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips random tools and valid arguments written as TypeScript', () => {
    fc.assert(
      fc.property(
        arbitraryToolCall({ emptyStrings: true }),
        fc.constantFrom(undefined, 'typescript' as const),
        ({ tool, args }, language) => {
          const body = renderTypeScriptCall(tool.name, args);
          expect(parseCodeCallBody(body, createPformatRegistry([tool]), { language })).toEqual([
            { name: tool.name, arguments: args },
          ]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips several calls joined by line breaks and semicolons', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryToolCall({ emptyStrings: true }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('\n', ';', ' ; \n'),
        (calls, separator) => {
          const tools = calls.map(({ tool }, index) => ({ ...tool, name: `${tool.name}${index}` }));
          const body = calls.map(({ args }, index) => renderPythonCall(tools[index]?.name ?? '', args)).join(separator);
          const expected = calls.map(({ args }, index) => ({ name: tools[index]?.name, arguments: args }));
          expect(parseCodeCallBody(body, createPformatRegistry(tools))).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws and terminates on arbitrary text', () => {
    const pieces = [
      'search',
      'query',
      '=',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ',',
      ';',
      ':',
      '"',
      "'",
      '`',
      '"""',
      '\\',
      'r',
      'None',
      '5',
      '-',
      '.',
      'e',
      '\n',
      ' ',
      '#',
      '//',
      '${',
      'await ',
      'x = ',
    ];
    const grammar = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), grammar), (body) => {
        const calls = parseCodeCallBody(body, registry);
        expect(calls === undefined || calls.length > 0).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses any valid call once prose is added on its own line', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][a-z]+ [a-z]+[a-z .]*$/), (prose) => {
        expect(parseCodeCallBody(`search(query="x")\n${prose}`, registry)).toBeUndefined();
        expect(parseCodeCallBody(`${prose}\nsearch(query="x")`, registry)).toBeUndefined();
      }),
    );
  });

  it('runs in linear time on large adversarial bodies', () => {
    const bodies = [
      `search(${'['.repeat(100_000)}`,
      `search(${'{"a":'.repeat(50_000)}`,
      `search("${'\\u{'.repeat(50_000)}`,
      `search(${'"'.repeat(200_000)})`,
      `search(${'query = '.repeat(30_000)}`,
      `${'a.'.repeat(100_000)}search()`,
      `${'search("x")\n'.repeat(20_000)}`,
      `search(${'1_'.repeat(100_000)}1)`,
      `search("q", ${'#'.repeat(100_000)}\n)`,
    ];
    for (const body of bodies) {
      parseCodeCallBody(body, registry);
    }
    expect(parseCodeCallBody(`${'search("x")\n'.repeat(20_000)}`, registry)).toHaveLength(20_000);
  });
});
