import { type CallSource, formatOfGrammar } from '@tiny/llm';
import type { CallFormat, LoopState } from './loop-state.js';

/**
 * Remembers how each call of a model turn was written (`source` → format and grammar), by the
 * call id the harness settled on.
 * @internal
 */
export function recordCallFormats(
  state: LoopState,
  calls: readonly { readonly id: string; readonly source: CallSource; readonly partial?: true | undefined }[],
): void {
  for (const call of calls) {
    const format = formatOfGrammar(call.source);
    state.callFormats.set(
      call.id,
      call.partial === true ? { format, grammar: call.source, partial: true } : { format, grammar: call.source },
    );
  }
}

/**
 * The `format` and `grammar` fields of a call's `tool_started` / `tool_completed` events: empty for
 * a call the run did not read from a model turn (nested calls, calls restored from a saved state).
 * @internal
 */
export function callFormatFields(state: LoopState, callId: string): Partial<CallFormat> {
  const known = state.callFormats.get(callId);
  return known === undefined ? {} : { format: known.format, grammar: known.grammar };
}
