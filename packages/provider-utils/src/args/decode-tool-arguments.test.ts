import { describe, expect, it } from 'vitest';
import { decodeToolArguments, replayArguments } from './decode-tool-arguments.js';

const call = (value: unknown) => ({ id: 'c1', name: 'f', arguments: value });

describe('decodeToolArguments', () => {
  it('takes objects, empty arguments, JSON text and double-encoded JSON', () => {
    expect(decodeToolArguments(call({ a: 1 }), { context: 'response' })).toEqual({
      id: 'c1',
      name: 'f',
      arguments: { a: 1 },
    });
    expect(decodeToolArguments(call(null), { context: 'response' }).arguments).toEqual({});
    expect(decodeToolArguments(call('  '), { context: 'response' })).toMatchObject({
      arguments: {},
      rawArguments: '  ',
    });
    expect(decodeToolArguments(call('{"a":1}'), { context: 'stream' }).arguments).toEqual({ a: 1 });
    expect(decodeToolArguments(call(JSON.stringify('{"a":1}')), { context: 'stream' }).arguments).toEqual({ a: 1 });
  });

  it('repairs relaxed JSON unless strict, and refuses anything when told why', () => {
    expect(decodeToolArguments(call('{a: "x",}'), { context: 'stream' }).arguments).toEqual({ a: 'x' });
    const strict = decodeToolArguments(call('{"a": "x'), { context: 'stream', strict: true, strictNote: ' (cut)' });
    expect(strict.invalid).toMatch(
      /^stream contained invalid JSON arguments for tool call `c1` \(`f`\): .+ \(cut\); raw arguments: \{"a": "x$/,
    );
    const refused = decodeToolArguments(call({ path: '/' }), {
      context: 'stream',
      refuse: 'the stream broke its protocol',
    });
    expect(refused).toMatchObject({
      rawArguments: '{"path":"/"}',
      invalid: expect.stringContaining('the stream broke its protocol'),
      refused: true,
    });
    // Cut-off (strict) text is refused too, so the harness never repairs it; unreadable text alone is not.
    expect(strict.refused).toBe(true);
    const unreadable = decodeToolArguments(call('{"a": [}'), { context: 'stream' });
    expect(unreadable.invalid).toBeDefined();
    expect(unreadable.refused).toBeUndefined();
  });

  it('never serialises nesting past the wire depth', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 5000; level += 1) deep = { x: deep };
    expect(decodeToolArguments(call(deep), { context: 'response' }).invalid).toMatch(/nest deeper than/);
    expect(
      decodeToolArguments(call(`${'{"x":'.repeat(5000)}1${'}'.repeat(5000)}`), { context: 'response' }).invalid,
    ).toMatch(/nest deeper than/);
  });

  it('makes an invalid call of what no repair recovers', () => {
    expect(decodeToolArguments(call('[1,2]'), { context: 'response' }).invalid).toMatch(/not a JSON object/);
  });
});

describe('replayArguments', () => {
  it('replays an object, a repair, or {}', () => {
    expect(replayArguments('{"a":1}')).toEqual({ a: 1 });
    expect(replayArguments('{a: "x",}')).toEqual({ a: 'x' });
    expect(replayArguments('')).toEqual({});
    expect(replayArguments('%%%')).toEqual({});
  });
});
