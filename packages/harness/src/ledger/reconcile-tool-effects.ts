import type { LoopState } from '../agent/loop-state.js';
import { unansweredCalls } from '../deferral/run-state.js';

/** The answer given to a call whose effect may have happened before a crash. */
export const INTERRUPTED_BEFORE_SETTLEMENT = 'interrupted before settlement';

/**
 * Reconciles the ledger before a resumed run re-enters the loop. Only calls of the **last**
 * assistant turn that have no tool answer **and** an unresolved (`started`) row are considered:
 * a tool declaring `runtime.replay: 'safe'` is left unanswered so the loop runs it again
 * (`re_execute`); any other tool, and a tool no longer registered, gets the tool error
 * "interrupted before settlement" and its row is settled `interrupted`. One `tool_effect_reconciled`
 * event per call. Returns the number of calls answered. No ledger, or no open calls: no I/O.
 * @internal
 */
export async function reconcileToolEffects(state: LoopState): Promise<number> {
  const ledger = state.ledger;
  if (ledger === undefined) return 0;
  const open = unansweredCalls(state.history);
  if (open.length === 0) return 0;
  const unresolved = new Set((await ledger.unresolved(state.runId)).map((row) => row.callId));
  let answered = 0;
  for (const call of open) {
    if (!unresolved.has(call.id)) continue;
    const entry = state.registry.get(call.name);
    const safe = entry !== undefined && !entry.external && entry.tool.policy.runtime.replay === 'safe';
    if (state.sink.active) {
      state.sink.emit({
        type: 'tool_effect_reconciled',
        callId: call.id,
        toolName: call.name,
        action: safe ? 're_execute' : 'interrupted',
      });
    }
    if (safe) continue;
    state.history.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: `tool \`${call.name}\` was ${INTERRUPTED_BEFORE_SETTLEMENT}: it may or may not have taken effect; check before calling it again`,
      isError: true,
    });
    await ledger.settled({ runId: state.runId, callId: call.id, status: 'interrupted' });
    answered += 1;
  }
  return answered;
}
