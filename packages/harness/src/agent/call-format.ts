import { type CallSource, formatOfGrammar, type Message } from '@tiny/llm';
import type { CallFormat, LoopState } from './loop-state.js';

/**
 * Remembers how each call of a model turn was written (`source` → format and grammar), by the
 * call id the harness settled on.
 * @internal
 */
export function recordCallFormats(
  state: LoopState,
  calls: readonly {
    readonly id: string;
    readonly source: CallSource;
    readonly partial?: true | undefined;
    readonly refused?: true | undefined;
  }[],
): void {
  for (const call of calls) {
    if (call.partial !== true && call.refused !== true) {
      // A call with no flag: one frozen record per grammar, shared by every such call.
      let shared = plainFormats.get(call.source);
      if (shared === undefined) {
        shared = Object.freeze({ format: formatOfGrammar(call.source), grammar: call.source });
        if (plainFormats.size < 64) plainFormats.set(call.source, shared);
      }
      state.callFormats.set(call.id, shared);
      continue;
    }
    // One shape for every call (flags added only when set): no object spread per call.
    const written: Mutable<CallFormat> = { format: formatOfGrammar(call.source), grammar: call.source };
    if (call.partial === true) written.partial = true;
    if (call.refused === true) written.refused = true;
    state.callFormats.set(call.id, written);
  }
}

/** The record of a call without flags, per grammar (a closed set of names; capped all the same). */
const plainFormats = new Map<CallSource, CallFormat>();

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The `format` and `grammar` fields of a call's `tool_started` / `tool_completed` events: empty for
 * a call the run did not read from a model turn (nested calls, calls restored from a saved state).
 * The per-call events of the common path write the two fields out instead of spreading this (an
 * object spread per event is a measurable share of a call, bench/README.md, issue 35).
 * @internal
 */
export function callFormatFields(state: LoopState, callId: string): Partial<CallFormat> {
  const known = state.callFormats.get(callId);
  return known === undefined ? {} : { format: known.format, grammar: known.grammar };
}

/**
 * Restores how the calls of a resumed transcript were written: each text call's format and
 * grammar from `AssistantToolCall.grammar`, and the calls cut off before their block closed
 * (`AssistantToolCall.partial`, or listed in `RunState.cutOffCalls`) or the adapter refused (`RunState.refusedCalls`),
 * which admission then never repairs or runs.
 * @internal
 */
export function restoreCallFormats(
  state: LoopState,
  history: readonly Message[],
  cutOffCalls: readonly string[] | undefined,
  refusedCalls?: readonly string[] | undefined,
): void {
  const cutOff = new Set(cutOffCalls ?? []);
  const refusedIds = new Set(refusedCalls ?? []);
  for (const message of history) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      // The flag on the recorded call decides; the state's list only adds to it (an edit dropping
      // either never makes a cut-off call runnable while the other remains).
      const partial = call.partial === true || cutOff.has(call.id);
      const refused = refusedIds.has(call.id);
      if (call.grammar === undefined && !partial && !refused) continue;
      const grammar = call.grammar ?? 'native';
      const format = formatOfGrammar(grammar);
      state.callFormats.set(call.id, {
        format,
        grammar,
        ...(partial ? { partial: true } : {}),
        ...(refused ? { refused: true } : {}),
      });
    }
  }
}
