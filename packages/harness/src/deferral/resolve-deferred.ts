import { ToolResult, type ValidationIssue } from '@tiny/tools';
import type { Admission } from '../admission/admission.js';
import { admitCall, prepareAndValidate } from '../admission/admit-call.js';
import type { LoopState } from '../agent/loop-state.js';
import { DeferredResolutionError } from '../errors/deferred-resolution-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { redactionOf, redactValue } from '../execution/redaction.js';
import { type ApprovalSecret, approvalDigest, approvalPolicyDigest, sameDigest } from './approval-digest.js';
import type { DeferredBatchData, DeferredCall } from './deferred-call.js';
import type { DeferredToolResults } from './deferred-tool-results.js';
import { unansweredCalls } from './run-state.js';

/**
 * Checks every pending call's digest against the call as the state holds it (id, tool name,
 * arguments, run id): an edited state is refused, and with a secret an unsigned or plain-SHA-256
 * call is refused too (a downgrade). Then every decision that carries a digest must match.
 * @throws {InvalidRunStateError} for a pending call whose digest does not match.
 * @throws {DeferredResolutionError} `digest_mismatch` for decisions made for another call.
 * @internal
 */
export function checkDigests(
  runId: string,
  secret: ApprovalSecret | undefined,
  pending: DeferredBatchData,
  results: DeferredToolResults,
): void {
  const mismatched: string[] = [];
  for (const call of [...pending.approvals, ...pending.calls]) {
    const expected = approvalDigest(
      { runId, callId: call.callId, toolName: call.toolName, arguments: call.arguments, policy: call.policy },
      secret,
    );
    if (call.digest === undefined) {
      if (secret !== undefined)
        throw new InvalidRunStateError({
          reason: `pending call \`${call.callId}\` carries no digest, but this harness signs approvals (\`approvalSecret\`)`,
        });
    } else if (!sameDigest(call.digest, expected)) {
      throw new InvalidRunStateError({
        reason: `pending call \`${call.callId}\`: its digest does not match its run id, call id, tool name and arguments (the state was edited after the pause, or signed with another secret)`,
      });
    }
    const decided = results.get(call.callId)?.digest;
    if (decided !== undefined && !sameDigest(decided, expected)) mismatched.push(call.callId);
  }
  if (mismatched.length > 0) throw new DeferredResolutionError({ problem: 'digest_mismatch', callIds: mismatched });
}

/**
 * Checks decisions against a pending batch before anything changes: every pending call decided,
 * no decision for a call outside the batch or already answered, approvals only for approvals.
 * @throws {DeferredResolutionError}
 * @internal
 */
export function checkDecisions(
  pending: DeferredBatchData,
  results: DeferredToolResults,
  messages: LoopState['history'],
): void {
  const approvals = new Set(pending.approvals.map((call) => call.callId));
  const all = new Set([...approvals, ...pending.calls.map((call) => call.callId)]);
  const open = new Set(unansweredCalls(messages).map((call) => call.id));
  const decided = results.callIds();
  const answeredEver = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const answered = decided.filter((id) => (all.has(id) && !open.has(id)) || (!all.has(id) && answeredEver.has(id)));
  if (answered.length > 0) throw new DeferredResolutionError({ problem: 'already_answered', callIds: answered });
  const foreign = decided.filter((id) => !all.has(id));
  if (foreign.length > 0) throw new DeferredResolutionError({ problem: 'foreign', callIds: foreign });
  const unresolved = [...all].filter((id) => results.get(id) === undefined);
  if (unresolved.length > 0) throw new DeferredResolutionError({ problem: 'unresolved', callIds: unresolved });
  const wrongKind = decided.filter((id) => {
    const kind = results.get(id)?.kind;
    return (kind === 'approve' || kind === 'approve_with_args') && !approvals.has(id);
  });
  if (wrongKind.length > 0) throw new DeferredResolutionError({ problem: 'not_approvable', callIds: wrongKind });
}

/**
 * Validates every `approveWithArgs` decision's arguments against its tool's declared schema, with
 * the host's injected values in place, before anything runs. Edited arguments come from the host,
 * so a mismatch is the host's mistake: it is refused to the host, never answered to the model as if
 * the model had sent them. A tool no longer offered is left to admission (an unknown-tool answer).
 * @throws {DeferredResolutionError} `invalid_arguments`, with the issues of each refused call.
 * @internal
 */
export async function checkEditedArguments(
  state: LoopState,
  pending: DeferredBatchData,
  results: DeferredToolResults,
): Promise<void> {
  const issues: Record<string, readonly ValidationIssue[]> = {};
  for (const call of pending.approvals) {
    const decision = results.get(call.callId);
    if (decision?.kind !== 'approve_with_args') continue;
    const entry = state.offered.get(call.toolName) ?? state.deferredTools.get(call.toolName);
    if (entry === undefined) continue;
    const pendingCall = { id: call.callId, name: call.toolName, arguments: decision.arguments };
    const checked = await prepareAndValidate(state, pendingCall, entry, decision.arguments);
    if (!checked.ok) issues[call.callId] = checked.issues;
  }
  const refused = Object.keys(issues);
  if (refused.length > 0) throw new DeferredResolutionError({ problem: 'invalid_arguments', callIds: refused, issues });
}

/**
 * The policy digest of the tool `call` names, as the harness offers it now (this turn's tools, then
 * the deferred catalogue, then the registry). @internal
 */
export function currentPolicyDigest(state: LoopState, toolName: string): string {
  const entry = state.offered.get(toolName) ?? state.deferredTools.get(toolName) ?? state.registry.get(toolName);
  return approvalPolicyDigest(
    entry === undefined
      ? undefined
      : {
          name: entry.name,
          description: entry.schema.description,
          parameters: entry.schema.parameters,
          policy: entry.tool.policy,
          injected: entry.tool.injected,
          nestedTools: entry.tool.nestedTools,
        },
  );
}

/** Whether a paused call's policy digest is the tool's current one (a call without one never is). */
function samePolicy(state: LoopState, call: DeferredCall): boolean {
  return call.policy !== undefined && sameDigest(call.policy, currentPolicyDigest(state, call.toolName));
}

/**
 * Turns decisions into admissions, in the order the model made the calls. Approvals go through the
 * full admission pipeline with the call marked approved (edited arguments validated like the
 * model's; the budget slot is taken now, when the call actually runs); denials and host answers
 * become answers, with `tool_approved` / `tool_denied` events.
 * @internal
 */
export async function admitDecisions(
  state: LoopState,
  pending: DeferredBatchData,
  results: DeferredToolResults,
): Promise<Admission[]> {
  const byId = new Map<string, DeferredCall>(
    [...pending.approvals, ...pending.calls].map((call) => [call.callId, call]),
  );
  const order = unansweredCalls(state.history).map((call) => call.id);
  const admissions: Admission[] = [];
  for (const callId of order) {
    const deferred = byId.get(callId);
    const decision = results.get(callId);
    if (deferred === undefined || decision === undefined) continue;
    const call = { id: callId, name: deferred.toolName, arguments: deferred.arguments };
    const { sink } = state;
    switch (decision.kind) {
      case 'approve':
      case 'approve_with_args': {
        if (!samePolicy(state, deferred)) {
          // Approved under another policy (the tool's definition or approval rule changed since the
          // pause): the approval does not carry over; the host is asked again.
          admissions.push({
            kind: 'defer',
            call,
            toolName: deferred.toolName,
            approval: true,
            reason: 'needs_reapproval',
          });
          break;
        }
        state.approvedCalls.add(callId);
        state.approvedTools.set(callId, deferred.toolName);
        const edited = decision.kind === 'approve_with_args';
        const args = edited ? decision.arguments : deferred.arguments;
        if (edited) state.hostEdited.set(callId, args);
        if (sink.active) {
          const tool = (state.offered.get(deferred.toolName) ?? state.deferredTools.get(deferred.toolName))?.tool;
          sink.emit({
            type: 'tool_approved',
            callId,
            toolName: deferred.toolName,
            edited,
            ...(edited && state.policy.captureToolIo ? { arguments: redactValue(args, redactionOf(tool)) } : {}),
          });
        }
        admissions.push(await admitCall(state, { ...call, arguments: args }));
        break;
      }
      case 'deny':
        if (sink.active)
          sink.emit({ type: 'tool_denied', callId, toolName: deferred.toolName, message: decision.message });
        admissions.push({
          kind: 'answer',
          call,
          toolName: deferred.toolName,
          result: ToolResult.error(decision.message),
        });
        break;
      case 'respond':
        admissions.push({ kind: 'answer', call, toolName: deferred.toolName, result: decision.result });
        break;
      case 'retry':
        admissions.push({
          kind: 'answer',
          call,
          toolName: deferred.toolName,
          result: ToolResult.retry(decision.message),
        });
        break;
      case 'fail':
        admissions.push({
          kind: 'answer',
          call,
          toolName: deferred.toolName,
          result: ToolResult.failed(decision.message),
        });
        break;
    }
  }
  return admissions;
}
