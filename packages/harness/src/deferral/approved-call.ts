import type { LoopState } from '../agent/loop-state.js';

/**
 * Whether `callId` may run as approved for `toolName`: its id is approved, and when the approval
 * came from a decision on a paused call (`resumeDeferred`), it was given for this very tool. An id
 * the host listed in `approvedCalls` binds the id alone (documented there); nested ids (`<parent>/<n>`)
 * are minted by the harness and never equal a provider id, so an approval given for one call cannot
 * reach another.
 * @internal
 */
export function isApprovedCall(
  state: LoopState,
  callId: string,
  toolName: string,
  options: { readonly nested?: boolean } = {},
): boolean {
  if (!state.approvedCalls.has(callId)) return false;
  const bound = state.approvedTools.get(callId);
  // A nested id is minted by the harness: only an approval bound to that very call and tool counts,
  // never a bare id from `approvedCalls` that happens to spell it.
  if (bound === undefined) return options.nested !== true;
  return bound === toolName;
}
