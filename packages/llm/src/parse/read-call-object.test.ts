import { describe, expect, it } from 'vitest';
import { readCalls } from './read-call-object.js';

const unknown = (): boolean => false;
const knows = (name: string): boolean => name === 'get_weather';

describe('readCalls', () => {
  it('reads canonical objects, OpenAI entries, envelopes and arrays', () => {
    expect(readCalls({ name: 'a', arguments: { x: 1 } }, false, unknown, 'bare_json')).toEqual([
      { name: 'a', arguments: { x: 1 }, source: 'bare_json' },
    ]);
    expect(
      readCalls({ function: { name: 'shell', arguments: '{"command":"ls"}' } }, false, unknown, 'bare_json'),
    ).toEqual([{ name: 'shell', arguments: { command: 'ls' }, source: 'bare_json' }]);
    const envelope = {
      content: 'x',
      tool_calls: [{ name: 'a', input: { k: 1 } }, { function: { name: 'b', arguments: {} } }],
    };
    expect(readCalls(envelope, false, unknown, 'bare_json').map((call) => [call.name, call.arguments])).toEqual([
      ['a', { k: 1 }],
      ['b', {}],
    ]);
    expect(readCalls([{ name: 'a', arguments: {} }, { name: '  ' }, 7], true, unknown, 'tagged_json')).toHaveLength(1);
  });

  it('honours argument-key aliases behind a marker, in priority order', () => {
    for (const key of ['arguments', 'args', 'parameters', 'params', 'input']) {
      expect(readCalls({ name: 'a', [key]: { v: key } }, true, unknown, 'tagged_json')[0]?.arguments).toEqual({
        v: key,
      });
    }
    expect(
      readCalls({ name: 'a', input: { v: 2 }, args: { v: 1 } }, true, unknown, 'tagged_json')[0]?.arguments,
    ).toEqual({ v: 1 });
  });

  it('applies the alias rule to bare objects: an answer is never a call', () => {
    expect(readCalls({ name: 'Alice', input: 'hi' }, false, unknown, 'bare_json')).toEqual([]);
    expect(readCalls({ name: 'get_weather', parameters: { city: 'Oslo' } }, false, knows, 'bare_json')).toEqual([
      { name: 'get_weather', arguments: { city: 'Oslo' }, source: 'bare_json' },
    ]);
    expect(readCalls({ name: 'Alice', arguments: 'none' }, false, unknown, 'bare_json')).toEqual([
      {
        name: 'Alice',
        arguments: {},
        source: 'bare_json',
        invalid: { raw: 'none', reason: 'the arguments text is not a JSON object' },
      },
    ]);
  });

  it('never turns stated arguments that are not an object into {} (only absent arguments are {})', () => {
    for (const value of [5, [], true, null, 'oops', '{"note": }', [{ note: 'a' }], 'null']) {
      const [call] = readCalls({ name: 'opt', arguments: value }, true, unknown, 'tagged_json');
      expect(call?.invalid?.raw).toBe(typeof value === 'string' ? value : JSON.stringify(value));
    }
    const [aliased] = readCalls({ name: 'opt', parameters: 'rm -rf' }, true, unknown, 'tagged_json');
    expect(aliased?.invalid?.raw).toBe('rm -rf');
    for (const stated of [{ name: 'opt' }, { name: 'opt', arguments: '' }, { name: 'opt', arguments: '{}' }]) {
      const [call] = readCalls(stated, true, unknown, 'tagged_json');
      expect(call).toEqual({ name: 'opt', arguments: {}, source: 'tagged_json' });
    }
    const [wrapped] = readCalls(
      { function: { name: 'opt', arguments: '{"note": "hi"}' } },
      true,
      unknown,
      'tagged_json',
    );
    expect(wrapped?.arguments).toEqual({ note: 'hi' });
  });

  it('defaults missing or undecodable arguments to an empty object and needs a string name', () => {
    expect(readCalls({ name: 'a' }, true, unknown, 'tagged_json')[0]?.arguments).toEqual({});
    expect(readCalls({ name: 'a', arguments: 'not json' }, true, unknown, 'tagged_json')[0]?.arguments).toEqual({});
    expect(readCalls({ name: 42, arguments: {} }, true, unknown, 'tagged_json')).toEqual([]);
    expect(readCalls('text', true, unknown, 'tagged_json')).toEqual([]);
  });
});
