import { describe, expect, it } from 'vitest';
import { stripCodeFence } from './strip-code-fence.js';

describe('stripCodeFence', () => {
  it('removes one fence with or without a language tag', () => {
    expect(stripCodeFence('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(stripCodeFence('```\n{}\n```')).toBe('{}');
    expect(stripCodeFence('  ~~~json\r\n[1]\r\n~~~  ')).toBe('[1]');
    expect(stripCodeFence('````\n{"a":"```"}\n````')).toBe('{"a":"```"}');
  });

  it('handles single-line fences and a missing closing fence', () => {
    expect(stripCodeFence('```{"a":1}```')).toBe('{"a":1}');
    expect(stripCodeFence('```json {"a":1}```')).toBe('{"a":1}');
    expect(stripCodeFence('```json\n{"a":1')).toBe('{"a":1');
  });

  it('returns the input itself when there is no fence', () => {
    const text = '  plain ';
    expect(stripCodeFence(text)).toBe(text);
    expect(stripCodeFence('``not a fence``')).toBe('``not a fence``');
  });
});
