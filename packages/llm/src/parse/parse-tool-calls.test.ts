import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grammarText } from './__fixtures__/grammar-fragment-arbitrary.js';
import { parseToolCalls } from './parse-tool-calls.js';

describe('parseToolCalls', () => {
  it('returns calls without ids, in text order, with the narrative between them', () => {
    const result = parseToolCalls(
      'One.<tool_call>{"name":"a","arguments":{}}</tool_call>Two.<invoke name="b"></invoke>Three.',
    );
    expect(result.calls).toEqual([
      { name: 'a', arguments: {}, source: 'tagged_json' },
      { name: 'b', arguments: {}, source: 'invoke_xml' },
    ]);
    expect(result.calls.every((call) => !('id' in call))).toBe(true);
    expect(result.text).toBe('One.\nTwo.\nThree.');
  });

  it('reads a whole-response JSON call only while bare JSON is allowed', () => {
    const text = '{"name":"echo","arguments":{"value":"hi"}}';
    expect(parseToolCalls(text).calls).toHaveLength(1);
    const off = parseToolCalls(text, { allowBareJson: false });
    expect(off.calls).toEqual([]);
    expect(off.text).toBe(text);
  });

  it('reads a whole-response JSON call after reasoning of any spelling and case, and after a leading closer', () => {
    const tools = [{ name: 'get_weather', description: '', parameters: { type: 'object', properties: {} } }];
    const call = '{"name":"get_weather","arguments":{"city":"Oslo"}}';
    const read = (text: string, leadingReasoning = true) => parseToolCalls(text, { tools, leadingReasoning });
    for (const reasoning of [
      '<think>hm</think>',
      '<THINK>hm</Think>\n',
      '[THINK]hm[/THINK]',
      '  <thinking>x</thinking> ',
    ]) {
      const result = read(`${reasoning}${call}`);
      expect(result.calls, reasoning).toEqual([
        { name: 'get_weather', arguments: { city: 'Oslo' }, source: 'bare_json' },
      ]);
      expect(result.text).toBe(reasoning.trim());
    }
    // The prompt opened the region: everything before the first closer is reasoning.
    expect(read(`hm</think>${call}`).text).toBe('hm</think>');
    expect(read(`hm</think>${call}`, false).text).toBe('hm</think>');
    // An unclosed opener leaves the whole text as it is.
    expect(read(`<think>unclosed ${call}`).calls).toEqual([]);
  });

  it('reports an unknown tool only when tools were offered', () => {
    const text = '<tool_call>{"name":"ghost","arguments":{}}</tool_call>';
    expect(parseToolCalls(text).diagnostics).toEqual([]);
    const tools = [{ name: 'real', description: '', parameters: { type: 'object' } }];
    expect(parseToolCalls(text, { tools }).diagnostics).toEqual([{ kind: 'unknown_tool', name: 'ghost' }]);
  });

  it('reads GLM lines only when no other grammar found a call, and only for offered names when tools are given', () => {
    expect(parseToolCalls('shell/command>ls').calls).toEqual([
      { name: 'shell', arguments: { command: 'ls' }, source: 'glm' },
    ]);
    const tools = [{ name: 'shell', description: '', parameters: { type: 'object' } }];
    expect(parseToolCalls('see lookup/id>7', { tools }).calls).toEqual([]);
    expect(parseToolCalls('shell/command>ls', { tools }).calls).toHaveLength(1);
  });

  it('never puts model output in diagnostics beyond tool names', () => {
    fc.assert(
      fc.property(grammarText, (text) => {
        for (const diagnostic of parseToolCalls(text).diagnostics) {
          switch (diagnostic.kind) {
            case 'malformed_block':
              expect(Object.keys(diagnostic).sort()).toEqual(['bodyChars', 'kind', 'source']);
              expect(Number.isInteger(diagnostic.bodyChars)).toBe(true);
              break;
            case 'unterminated_block':
              expect(Object.keys(diagnostic).sort()).toEqual(['kind', 'source']);
              break;
            case 'name_repaired':
              expect(Object.keys(diagnostic).sort()).toEqual(['from', 'kind', 'to']);
              break;
            case 'unknown_tool':
              expect(Object.keys(diagnostic).sort()).toEqual(['kind', 'name']);
              break;
            case 'arguments_repaired':
              expect(Object.keys(diagnostic).sort()).toEqual(['kind', 'tool']);
              break;
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps keys such as __proto__ as plain argument keys', () => {
    const result = parseToolCalls(
      '<invoke name="a"><parameter name="__proto__">{"polluted": true}</parameter></invoke>',
    );
    const args = result.calls[0]?.arguments ?? {};
    if (typeof args === 'string') throw new Error('expected decoded arguments');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
