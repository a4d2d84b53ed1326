import { describe, expect, it } from 'vitest';
import { renderPythonCall, renderTypeScriptCall } from './render-code-call.js';

describe('renderPythonCall', () => {
  it('writes keyword arguments with Python literals', () => {
    const args = {
      query: 'say "hi"\n',
      limit: 5,
      ratio: -0.5,
      safe: true,
      off: false,
      tags: ['a'],
      filter: { x: null },
    };
    expect(renderPythonCall('search', args)).toBe(
      'search(query="say \\"hi\\"\\n", limit=5, ratio=-0.5, safe=True, off=False, tags=["a"], filter={"x": None})',
    );
  });

  it('uses the single-dict form when a key cannot be a keyword', () => {
    expect(renderPythonCall('f', { 'max-results': 5, ok: 1 })).toBe('f({"max-results": 5, "ok": 1})');
    expect(renderPythonCall('f', { from: 'a' })).toBe('f({"from": "a"})');
  });

  it('skips undefined values and writes no arguments as ()', () => {
    expect(renderPythonCall('clock', {})).toBe('clock()');
    expect(renderPythonCall('f', { a: undefined, b: 1 })).toBe('f(b=1)');
  });
});

describe('renderTypeScriptCall', () => {
  it('writes one object with bare or quoted keys', () => {
    expect(renderTypeScriptCall('search', { query: 'q', 'max-results': 5, nested: { ok: true, list: [null] } })).toBe(
      'search({query: "q", "max-results": 5, nested: {ok: true, list: [null]}})',
    );
  });

  it('writes no arguments as ()', () => {
    expect(renderTypeScriptCall('clock', { gone: undefined })).toBe('clock()');
  });
});
