import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { relaxObjectText } from './relax-object-text.js';

describe('relaxObjectText', () => {
  it('returns valid JSON text unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(relaxObjectText(text)).toBe(text);
      }),
    );
  });

  it('rewrites only what strict JSON rejects', () => {
    expect(relaxObjectText('{a: "b: c", d: [e, f]}')).toBe('{"a": "b: c", "d": [e, f]}');
    expect(relaxObjectText('{"a":1 , }')).toBe('{"a":1  }');
    expect(relaxObjectText('[1,2,]')).toBe('[1,2]');
    expect(relaxObjectText('{"a":[1,{"b":2')).toBe('{"a":[1,{"b":2}]}');
    expect(relaxObjectText('{"a":1}}]')).toBe('{"a":1}');
    expect(relaxObjectText('{"a":"x\ty"}')).toBe('{"a":"x\\ty"}');
    expect(relaxObjectText('{"a":1<|tool_call_end|>}')).toBe('{"a":1}');
    expect(relaxObjectText('{"a":"<|tool_call_end|>"}')).toBe('{"a":"<|tool_call_end|>"}');
  });

  it('refuses text that ends inside a string', () => {
    expect(relaxObjectText('{"a": "b')).toBeUndefined();
    expect(relaxObjectText('{"a')).toBeUndefined();
    expect(relaxObjectText('["x\\"]')).toBeUndefined();
  });

  it('leaves unbalanced text with a mismatched closer alone', () => {
    expect(relaxObjectText('{"a":[1}')).toBe('{"a":[1}');
  });
});
