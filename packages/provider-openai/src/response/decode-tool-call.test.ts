import { isInvalidToolCall } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeToolCall } from './decode-tool-call.js';

const call = (args: unknown) => decodeToolCall({ id: 'call_1', name: 'get_weather', arguments: args }, 'response');

describe('decodeToolCall (P1 wire leniency)', () => {
  it('decodes a JSON object string and keeps the raw text', () => {
    expect(call('{"city":"Paris"}')).toEqual({
      id: 'call_1',
      name: 'get_weather',
      arguments: { city: 'Paris' },
      rawArguments: '{"city":"Paris"}',
    });
  });

  it('takes an object as is, without raw arguments', () => {
    expect(call({ city: 'Paris' })).toEqual({ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } });
  });

  it.each([[''], ['   '], ['\n']])('reads the blank string %j as no arguments', (raw) => {
    expect(call(raw)).toEqual({ id: 'call_1', name: 'get_weather', arguments: {}, rawArguments: raw });
  });

  it('reads absent or null arguments as no arguments', () => {
    expect(call(undefined).arguments).toEqual({});
    expect(call(null).arguments).toEqual({});
  });

  it('repairs relaxed JSON and keeps the raw text for a byte-exact replay', () => {
    const repaired = call('{city: "Paris", unit: "c",}');
    expect(repaired).toMatchObject({
      arguments: { city: 'Paris', unit: 'c' },
      rawArguments: '{city: "Paris", unit: "c",}',
    });
    expect(repaired.invalid).toBeUndefined();
  });

  it('strips leaked chat-template markers and a duplicated object', () => {
    expect(call('{"city":"Paris"}<|tool_call_end|>').arguments).toEqual({ city: 'Paris' });
    expect(call('{"city":"Paris"}{"city":"Paris"}').arguments).toEqual({ city: 'Paris' });
  });

  it('unwraps a double-encoded object once', () => {
    expect(call(JSON.stringify('{"city":"Paris"}')).arguments).toEqual({ city: 'Paris' });
  });

  it('returns an unrepairable call as invalid, with the raw text and the exact reason', () => {
    const broken = call('{"city": "Os');
    expect(isInvalidToolCall(broken)).toBe(true);
    expect(broken.arguments).toBe('{"city": "Os');
    expect(broken.rawArguments).toBe('{"city": "Os');
    expect(broken.invalid).toMatch(
      /^response contained invalid JSON arguments for tool call `call_1` \(`get_weather`\): .+; raw arguments: \{"city": "Os$/,
    );
  });

  it('refuses single-quoted values and non-object JSON rather than guess', () => {
    expect(call("{'city': 'Paris'}").invalid).toContain("raw arguments: {'city': 'Paris'}");
    expect(call('[1, 2]').invalid).toContain('the arguments are not a JSON object');
    expect(call(42).invalid).toContain('the arguments are not a JSON object');
  });

  it('names the stream as the context of a streamed call', () => {
    const broken = decodeToolCall({ id: 'x', name: 'n', arguments: '{"a": tru' }, 'stream');
    expect(broken.invalid).toMatch(/^stream contained invalid JSON arguments for tool call `x` \(`n`\)/);
  });

  it('keeps extra content', () => {
    const decoded = decodeToolCall(
      { id: 'x', name: 'n', arguments: '{}', extraContent: { google: { thought_signature: 's' } } },
      'response',
    );
    expect(decoded.extraContent).toEqual({ google: { thought_signature: 's' } });
  });

  it('never throws, and an object argument string always round-trips', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const decoded = call(raw);
        if (decoded.invalid !== undefined) expect(decoded.arguments).toBe(raw);
        else expect(typeof decoded.arguments).toBe('object');
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const raw = JSON.stringify(value);
        expect(call(raw)).toMatchObject({ arguments: JSON.parse(raw), rawArguments: raw });
      }),
    );
  });
});
