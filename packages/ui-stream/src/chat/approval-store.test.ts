import { describe, expect, it } from 'vitest';
import { InMemoryApprovalStore } from './approval-store.js';

describe('InMemoryApprovalStore', () => {
  it('forgets the oldest paused run past maxRuns, and refuses a bad bound', () => {
    const store = new InMemoryApprovalStore({ maxRuns: 2 });
    const paused = (runId: string) => ({
      runId,
      state: {} as never,
      approvals: [{ approvalId: `a-${runId}`, toolCallId: 'c' }],
    });
    store.save(paused('r1'));
    store.save(paused('r2'));
    store.save(paused('r3'));
    expect(store.size).toBe(2);
    expect(store.get('a-r1')).toBeUndefined();
    expect(store.get('a-r3')?.runId).toBe('r3');
    expect(store.take('r2')?.runId).toBe('r2');
    expect(store.take('r2')).toBeUndefined();
    expect(() => new InMemoryApprovalStore({ maxRuns: 0 })).toThrow(/maxRuns/);
  });
});
