import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashText } from './hash-text.js';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 16);

describe('hashText', () => {
  it('gives the truncated SHA-1 of any text, asked once or again, short or long, past the remembered count', () => {
    const texts = Array.from({ length: 700 }, (_, index) => `[null,"${index}"]${'x'.repeat(index)}`);
    for (let round = 0; round < 3; round += 1) for (const text of texts) expect(hashText(text)).toBe(sha1(text));
    expect(hashText('')).toBe(sha1(''));
  });
});
