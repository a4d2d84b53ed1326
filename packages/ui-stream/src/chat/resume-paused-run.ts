import type { AgentHarness, AgentRunStream, InvokeOptions, RunContext } from '@tiny/harness';
import { DeferredToolResults } from '@tiny/harness';
import { ChatApprovalError } from '../errors/chat-approval-error.js';
import type { ApprovalStateStore, PausedRun } from './approval-store.js';

/** One approval response of the client (`addToolApprovalResponse`), read from a tool part. */
export interface ApprovalResponse {
  readonly approvalId: string;
  /** The tool call the client says it answers; `undefined` when the protocol binds by approval id only (AG-UI). */
  readonly toolCallId: string | undefined;
  readonly approved: boolean;
  readonly reason: string | undefined;
}

/**
 * Finds the paused run the responses answer, checks that they answer exactly its approvals (each
 * approval id issued for that tool call), and takes it out of the store (once).
 */
export async function claimPausedRun(
  store: ApprovalStateStore,
  responses: readonly ApprovalResponse[],
): Promise<PausedRun> {
  const ids = responses.map((response) => response.approvalId);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length > 0) throw new ChatApprovalError({ problem: 'malformed', ids: [...new Set(repeated)] });
  const found = await Promise.all(responses.map((response) => store.get(response.approvalId)));
  const unknown = responses.filter((_response, index) => found[index] === undefined).map((r) => r.approvalId);
  if (unknown.length > 0) throw new ChatApprovalError({ problem: 'unknown_approval', ids: unknown });
  const runIds = new Set(found.map((paused) => (paused as PausedRun).runId));
  if (runIds.size > 1) throw new ChatApprovalError({ problem: 'several_runs', ids: [...runIds] });
  const paused = found[0] as PausedRun;
  const mismatched = responses.filter(
    (response) =>
      !paused.approvals.some(
        (issued) =>
          issued.approvalId === response.approvalId &&
          (response.toolCallId === undefined || issued.toolCallId === response.toolCallId),
      ),
  );
  if (mismatched.length > 0)
    throw new ChatApprovalError({
      problem: 'mismatched_call',
      ids: mismatched.map((r) => r.toolCallId ?? r.approvalId),
    });
  const answered = new Set(responses.map((response) => response.approvalId));
  const missing = paused.approvals.filter((issued) => !answered.has(issued.approvalId)).map((i) => i.toolCallId);
  const external = paused.state.pending?.calls.map((call) => call.callId) ?? [];
  if (missing.length > 0 || external.length > 0)
    throw new ChatApprovalError({ problem: 'incomplete', ids: [...missing, ...external] });
  const taken = await store.take(paused.runId);
  if (taken === undefined)
    throw new ChatApprovalError({ problem: 'unknown_approval', ids: responses.map((r) => r.approvalId) });
  return taken;
}

/**
 * Resumes a claimed paused run with the responses: each approval bound to its pending call's digest
 * (`approve(call)`), each refusal a denial with its reason (or `denialMessage`). Resumes once
 * (`resumeOnce`), whatever `invoke` says.
 */
export function resumePausedRun(
  harness: AgentHarness,
  context: RunContext,
  paused: PausedRun,
  responses: readonly ApprovalResponse[],
  invoke: InvokeOptions,
  denialMessage: string | undefined,
): { readonly run: AgentRunStream; readonly decided: readonly string[] } {
  const results = new DeferredToolResults();
  const pending = paused.state.pending?.approvals ?? [];
  for (const response of responses) {
    const callId = paused.approvals.find((issued) => issued.approvalId === response.approvalId)?.toolCallId;
    const call = pending.find((candidate) => candidate.callId === callId);
    if (call === undefined) throw new ChatApprovalError({ problem: 'mismatched_call', ids: [response.approvalId] });
    if (response.approved) results.approve(call);
    else results.deny(call, response.reason ?? denialMessage ?? 'The user denied this call.');
  }
  const run = harness.streamResumeDeferred(context, paused.state, results, { ...invoke, resumeOnce: true });
  return { run, decided: results.callIds() };
}
