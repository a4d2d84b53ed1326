import type { LoopState } from '../agent/loop-state.js';
import { appendBuilt } from '../agent/sealed-history.js';
import { unansweredCalls } from '../deferral/run-state.js';
import type { EffectStatus } from './tool-effect-ledger.js';

/** The answer given to a call whose effect may have happened before a crash. */
export const INTERRUPTED_BEFORE_SETTLEMENT = 'interrupted before settlement';

/**
 * What the model is told about a call the ledger knows but the transcript never answered. Only a
 * `completed` row claims the effect happened; `started` and `interrupted` (settled by an earlier
 * reconciliation that crashed before its answer was checkpointed) are both "unknown".
 */
function reconciledAnswer(toolName: string, recorded: EffectStatus): string {
  switch (recorded) {
    case 'completed':
      return `tool \`${toolName}\` completed before the run was interrupted, but its result was lost; it was not run again`;
    case 'failed':
      return `tool \`${toolName}\` failed before the run was interrupted, and its error was lost; it was not run again`;
    default:
      return `tool \`${toolName}\` was ${INTERRUPTED_BEFORE_SETTLEMENT}: it may or may not have taken effect; check before calling it again`;
  }
}

/**
 * Reconciles the ledger before a resumed run re-enters the loop. Only calls of the **last**
 * assistant turn that have no tool answer **and** a ledger row are considered:
 *
 * - `started`: the crash hit while the call ran, so the effect may have happened;
 * - `interrupted`: an earlier resume already reconciled the call and crashed before its answer was
 *   checkpointed (a double or triple crash): the effect is just as unknown as for `started`;
 * - `completed` / `failed` (only when the ledger can list rows): the call ended, its result never
 *   reached the transcript.
 *
 * A tool declaring `runtime.replay: 'safe'` is left unanswered so the loop runs it again
 * (`re_execute`); any other tool, and a tool no longer registered, gets a tool error saying what the
 * ledger knows (only a `completed` row is ever reported as done) and a `started` row is settled
 * `interrupted` (when the ledger has `rows`; otherwise it stays `started`, so a resume after another
 * crash still finds it instead of running the call again). One `tool_effect_reconciled` event per call. Returns the number of calls answered.
 * No ledger, or no open calls: no I/O.
 * @internal
 */
export async function reconcileToolEffects(state: LoopState): Promise<number> {
  const ledger = state.ledger;
  if (ledger === undefined) return 0;
  const open = unansweredCalls(state.history);
  if (open.length === 0) return 0;
  const recorded = new Map<string, EffectStatus>();
  const listsRows = typeof ledger.rows === 'function';
  for (const row of (await ledger.rows?.(state.runId)) ?? []) recorded.set(row.callId, row.status);
  // `unresolved` is authoritative for `started` (a ledger without `rows` still reports those).
  for (const row of await ledger.unresolved(state.runId)) recorded.set(row.callId, 'started');
  let answered = 0;
  for (const call of open) {
    const status = recorded.get(call.id);
    if (status === undefined) continue;
    const entry = state.registry.get(call.name);
    const safe = entry !== undefined && !entry.external && entry.tool.policy.runtime.replay === 'safe';
    if (state.sink.active) {
      state.sink.emit({
        type: 'tool_effect_reconciled',
        callId: call.id,
        toolName: call.name,
        action: safe ? 're_execute' : 'interrupted',
        recorded: status,
      });
    }
    if (safe) continue;
    appendBuilt(state.history, {
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: reconciledAnswer(call.name, status),
      isError: true,
    });
    // Only a ledger that lists rows can show a later resume an `interrupted` row; without `rows`, the
    // row stays `started` so that resume still finds it (settled, it would look like no row at all and
    // the call would run again).
    if (status === 'started' && listsRows) {
      await ledger.settled({ runId: state.runId, callId: call.id, status: 'interrupted' });
    }
    answered += 1;
  }
  return answered;
}
