import { describe, expect, it } from 'vitest';
import { createToolTimeoutSettings, resolveToolTimeout } from './tool-timeout.js';

describe('tool timeouts', () => {
  const settings = createToolTimeoutSettings({ inheritedMs: 30_000, minMs: 100, maxMs: 60_000, graceMs: 250 });

  it('normalises settings so min >= 1 and max >= min', () => {
    expect(createToolTimeoutSettings({ minMs: 0, maxMs: -5 })).toMatchObject({ minMs: 1, maxMs: 1 });
    expect(createToolTimeoutSettings({ minMs: 500, maxMs: 100 })).toMatchObject({ minMs: 500, maxMs: 500 });
    expect(createToolTimeoutSettings({ inheritedMs: Number.NaN }).inheritedMs).toBe(120_000);
  });

  it('inherit takes the host budget, clamped, with no grace', () => {
    expect(resolveToolTimeout({ kind: 'inherit' }, settings)).toEqual({ budgetMs: 30_000, deadlineMs: 30_000 });
    const big = createToolTimeoutSettings({ inheritedMs: 999_999, maxMs: 60_000 });
    expect(resolveToolTimeout({ kind: 'inherit' }, big).budgetMs).toBe(60_000);
  });

  it('inherited 0 means no deadline', () => {
    const none = createToolTimeoutSettings({ inheritedMs: 0 });
    expect(resolveToolTimeout({ kind: 'inherit' }, none)).toEqual({ budgetMs: undefined, deadlineMs: undefined });
  });

  it('unbounded has no deadline', () => {
    expect(resolveToolTimeout({ kind: 'unbounded' }, settings)).toEqual({ budgetMs: undefined, deadlineMs: undefined });
  });

  it('explicit is clamped and only its deadline gets the grace period', () => {
    expect(resolveToolTimeout({ kind: 'explicit', ms: 5_000 }, settings)).toEqual({
      budgetMs: 5_000,
      deadlineMs: 5_250,
    });
    expect(resolveToolTimeout({ kind: 'explicit', ms: 10 }, settings).budgetMs).toBe(100);
    expect(resolveToolTimeout({ kind: 'explicit', ms: 10_000_000 }, settings).budgetMs).toBe(60_000);
  });
});
