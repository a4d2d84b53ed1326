import type { LoopState } from '../agent/loop-state.js';

/**
 * Whether `callId` may run as approved for `toolName`: its id is approved, and when the approval
 * came from a decision on a paused call (`resumeDeferred`), it was given for this very tool. An id
 * the host listed in `approvedCalls` binds the id alone (documented there); nested ids (`<parent>/<n>`)
 * are minted by the harness and never equal a provider id, so an approval given for one call cannot
 * reach another.
 * @internal
 */
export function isApprovedCall(state: LoopState, callId: string, toolName: string): boolean {
  if (!state.approvedCalls.has(callId)) return false;
  const bound = state.approvedTools.get(callId);
  return bound === undefined || bound === toolName;
}
