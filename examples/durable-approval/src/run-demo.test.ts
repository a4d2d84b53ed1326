import { describe, expect, it } from 'vitest';
import { refunds } from './refund-agent.js';
import { runDurableApproval } from './run-demo.js';

describe('durable-approval demo', () => {
  it('pauses on the refund, resumes after the ingress approval, and refunds once', async () => {
    const result = await runDurableApproval(() => {});
    expect(result.outcome).toBe('final');
    expect(result.text).toBe('Refund handled: refunded 1250 cents on order A-17');
    expect([...refunds.values()]).toEqual([1250]);
  });
});
