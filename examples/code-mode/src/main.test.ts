import { describe, expect, it } from 'vitest';
import { withCodeMode, withoutCodeMode } from './compare.js';

describe('code mode against one call per turn', () => {
  it('does the 20-call task in 2 model calls instead of 21, with the same answer and fewer tokens sent', async () => {
    const plain = await withoutCodeMode();
    const code = await withCodeMode();
    expect(plain.modelCalls).toBe(21);
    expect(code.modelCalls).toBe(2);
    expect(plain.toolCalls).toBe(20);
    expect(code.toolCalls).toBe(21);
    expect(code.answer).toBe(plain.answer);
    expect(code.answer).toMatch(/^Most expensive: sku-\d\d \(\d+ EUR\); total \d+ EUR\.$/);
    expect(code.tokensSent).toBeLessThan(plain.tokensSent / 3);
  });
});
