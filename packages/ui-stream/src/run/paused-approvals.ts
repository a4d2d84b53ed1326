import type { AgentRun } from '@tiny/harness';
import type { ApprovalStateStore, IssuedApproval } from '../chat/approval-store.js';
import { randomId } from './read-run.js';

/**
 * Mints an approval id for each approval a paused run waits on and keeps the run in `store` (when
 * given) so a client's response can resume it. Returns the issued ids (empty for other runs).
 */
export async function issueApprovals(
  run: AgentRun,
  store: ApprovalStateStore | undefined,
  messageId: string | undefined,
  conversationId?: string | undefined,
): Promise<readonly IssuedApproval[]> {
  if (run.outcome !== 'deferred') return [];
  const approvals = run.deferred.approvals.map((call) => ({ approvalId: randomId(), toolCallId: call.callId }));
  if (store !== undefined && approvals.length > 0)
    await store.save({
      runId: run.runId,
      state: run.state,
      approvals,
      messageId,
      ...(conversationId === undefined ? {} : { conversationId }),
    });
  return approvals;
}
