import type { LoopState } from '../agent/loop-state.js';
import { unansweredCalls } from '../deferral/run-state.js';

/** The answer given to a call whose effect may have happened before a crash. */
export const INTERRUPTED_BEFORE_SETTLEMENT = 'interrupted before settlement';

/**
 * Reconciles the ledger before a resumed run re-enters the loop. Only calls of the **last**
 * assistant turn that have no tool answer **and** a ledger row are considered. A row still
 * `started` means the effect may have happened; a settled row (when the ledger can list rows)
 * means it did, but its result never reached the transcript. In both cases
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
  // Calls that settled before the crash but whose answer was never recorded: the effect happened.
  const finished = new Map(
    ((await ledger.rows?.(state.runId)) ?? [])
      .filter((row) => row.status !== 'started')
      .map((row) => [row.callId, row.status]),
  );
  let answered = 0;
  for (const call of open) {
    const settledAs = finished.get(call.id);
    if (!unresolved.has(call.id) && settledAs === undefined) continue;
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
    const content =
      settledAs === undefined
        ? `tool \`${call.name}\` was ${INTERRUPTED_BEFORE_SETTLEMENT}: it may or may not have taken effect; check before calling it again`
        : `tool \`${call.name}\` ${settledAs === 'completed' ? 'completed' : 'ended'} before the run was interrupted, but its result was lost; it was not run again`;
    state.history.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content, isError: true });
    if (settledAs === undefined) await ledger.settled({ runId: state.runId, callId: call.id, status: 'interrupted' });
    answered += 1;
  }
  return answered;
}
