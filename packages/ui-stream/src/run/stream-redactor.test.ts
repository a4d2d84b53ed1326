import { describe, expect, it } from 'vitest';
import { StreamRedactor } from './stream-redactor.js';

const SECRET = 'hostKEY-7f3a91c2';

/** Feeds `text` in pieces of `size`, then ends the part: what a client would see. */
function shown(redactor: StreamRedactor, text: string, size: number): string {
  let out = '';
  for (let at = 0; at < text.length; at += size) out += redactor.feedText(text.slice(at, at + size));
  return out + redactor.endText();
}

describe('StreamRedactor', () => {
  it('finds a secret split across text deltas at every split point, and keeps the rest of the text', () => {
    const text = `The key is ${SECRET}, and ${SECRET}${SECRET} again.`;
    for (let size = 1; size <= text.length; size += 1) {
      const out = shown(new StreamRedactor([SECRET]), text, size);
      expect(out).toBe('The key is [redacted], and [redacted][redacted] again.');
    }
  });

  it('reads the secret list again as it grows (values learned during the run)', () => {
    const secrets: string[] = [];
    const redactor = new StreamRedactor(secrets);
    expect(shown(redactor, `first ${SECRET}`, 3)).toBe(`first ${SECRET}`);
    secrets.push(SECRET);
    expect(shown(redactor, `then ${SECRET}`, 3)).toBe('then [redacted]');
  });

  it('redacts numbers equal to a numeric host value, and their decimal form inside strings', () => {
    const redactor = new StreamRedactor(['40012345678']);
    expect(redactor.payload({ account: 40012345678, other: 12, note: 'acct 40012345678' })).toEqual({
      account: '[redacted]',
      other: 12,
      note: 'acct [redacted]',
    });
  });

  it('makes any value plain JSON without throwing: BigInt, cycles, throwing getters and toJSON, deep nesting', () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    const getter = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error(`getter ${SECRET}`);
      },
    });
    const toJSON = {
      toJSON() {
        throw new Error('toJSON boom');
      },
    };
    let deep: unknown = 'leaf';
    for (let index = 0; index < 5000; index += 1) deep = { deep };
    const redactor = new StreamRedactor([SECRET]);
    for (const value of [10n ** 30n, cycle, getter, toJSON, deep, [undefined, () => 1, Symbol('s')]]) {
      const plain = redactor.payload(value);
      expect(() => JSON.stringify(plain)).not.toThrow();
      expect(JSON.stringify(plain)).not.toContain(SECRET);
    }
    expect(redactor.payload(10n ** 30n)).toBe('1000000000000000000000000000000');
  });
});
