import { describe, expect, it } from 'vitest';
import { CONTEXT_DETAIL_MAX_CHARS, contextDetailFromArgs } from './context-detail-from-args.js';

/** True when `text` has no lone surrogates (it survives a UTF-8 round trip). */
function isWellFormed(text: string): boolean {
  return new TextDecoder().decode(new TextEncoder().encode(text)) === text;
}

describe('contextDetailFromArgs', () => {
  it('returns undefined for arguments that are not a plain object', () => {
    for (const args of [undefined, null, 'to', 42, true, ['a'], [{ to: 'x' }]]) {
      expect(contextDetailFromArgs(args)).toBeUndefined();
    }
  });

  it('returns undefined when no listed key renders', () => {
    expect(contextDetailFromArgs({})).toBeUndefined();
    expect(contextDetailFromArgs({ body: 'hello', limit: 3 })).toBeUndefined();
    expect(contextDetailFromArgs({ to: '  ', query: {}, url: null, id: [1, 2] })).toBeUndefined();
  });

  it('follows the fixed key priority, not the order of the object', () => {
    expect(contextDetailFromArgs({ id: 7, subject: 'Hi', to: 'ada@example.com' })).toBe('ada@example.com');
    expect(contextDetailFromArgs({ name: 'x', path: '/tmp/a.txt', query: 'cats' })).toBe('cats');
    expect(contextDetailFromArgs({ repository: 'tiny/tools', channel_id: 'C123' })).toBe('C123');
    expect(contextDetailFromArgs({ id: 'abc', name: 'main' })).toBe('main');
  });

  it('renders numbers and booleans', () => {
    expect(contextDetailFromArgs({ id: 42 })).toBe('42');
    expect(contextDetailFromArgs({ id: 0 })).toBe('0');
    expect(contextDetailFromArgs({ q: false })).toBe('false');
  });

  it('joins arrays of strings and skips arrays holding anything else', () => {
    expect(contextDetailFromArgs({ to: ['ada@example.com', 'bob@example.com'] })).toBe(
      'ada@example.com, bob@example.com',
    );
    expect(contextDetailFromArgs({ to: ['ada@example.com', 3], subject: 'Lunch' })).toBe('Lunch');
    expect(contextDetailFromArgs({ to: [], subject: 'Lunch' })).toBe('Lunch');
  });

  it('falls through to the next key when a value renders empty', () => {
    expect(contextDetailFromArgs({ to: '', recipient: ' \n\t ', email: 'ada@example.com' })).toBe('ada@example.com');
    expect(contextDetailFromArgs({ to: [''], q: 'weather' })).toBe('weather');
  });

  it('joins blank array items literally, so they still render the separator', () => {
    expect(contextDetailFromArgs({ to: ['', ' '], q: 'weather' })).toBe(',');
  });

  it('collapses whitespace and trims', () => {
    expect(contextDetailFromArgs({ command: '  ls   -la\n\t/tmp  ' })).toBe('ls -la /tmp');
    expect(contextDetailFromArgs({ to: [' a ', 'b\nc'] })).toBe('a , b c');
  });

  it('ignores inherited keys', () => {
    const args = Object.create({ to: 'inherited@example.com' }) as Record<string, unknown>;
    args.subject = 'own';
    expect(contextDetailFromArgs(args)).toBe('own');
  });

  it('keeps a value of exactly the cap', () => {
    const value = 'x'.repeat(CONTEXT_DETAIL_MAX_CHARS);
    expect(contextDetailFromArgs({ query: value })).toBe(value);
  });

  it('cuts a long value to 77 characters plus an ellipsis', () => {
    const detail = contextDetailFromArgs({ query: 'y'.repeat(200) });
    expect(detail).toBe(`${'y'.repeat(77)}...`);
    expect(detail).toHaveLength(CONTEXT_DETAIL_MAX_CHARS);
    expect(contextDetailFromArgs({ query: 'z'.repeat(81) })).toHaveLength(CONTEXT_DETAIL_MAX_CHARS);
  });

  it('counts the collapsed text against the cap', () => {
    const value = `${'a '.repeat(40)}${' '.repeat(100)}`;
    expect(contextDetailFromArgs({ query: value })).toBe('a '.repeat(40).trim());
  });

  it('never splits a surrogate pair', () => {
    // 76 ASCII characters put the 77th code unit on the high half of the emoji.
    const detail = contextDetailFromArgs({ title: `${'a'.repeat(76)}😀${'b'.repeat(20)}` });
    expect(detail).toBe(`${'a'.repeat(76)}...`);
    expect(detail?.length).toBeLessThanOrEqual(CONTEXT_DETAIL_MAX_CHARS);

    const emoji = contextDetailFromArgs({ title: '😀'.repeat(60) });
    expect(emoji).toBe(`${'😀'.repeat(38)}...`);
    expect(isWellFormed(emoji ?? '')).toBe(true);
  });

  it('never returns more than the cap', () => {
    for (let length = 0; length < 200; length += 1) {
      const detail = contextDetailFromArgs({ path: `${'é😀'.repeat(length)}` });
      expect(detail?.length ?? 0).toBeLessThanOrEqual(CONTEXT_DETAIL_MAX_CHARS);
      expect(isWellFormed(detail ?? '')).toBe(true);
    }
  });
});
