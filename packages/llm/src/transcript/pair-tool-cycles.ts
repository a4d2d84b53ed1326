import type { Message } from '../messages/message.js';
import { fromTranscriptEntries, type TranscriptEntry, toTranscriptEntries } from './transcript-entry.js';

/** True when both lists hold the same ids the same number of times, in any order. */
function sameIds(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  const counts = new Map<string, number>();
  for (const id of left) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const id of right) {
    const count = counts.get(id) ?? 0;
    if (count === 0) return false;
    counts.set(id, count - 1);
  }
  return true;
}

/**
 * Drops tool cycles a provider would reject, on both sides. An assistant turn with tool calls
 * is kept only when the very next entry is a run of tool messages whose `toolCallId`s equal its
 * call ids (same ids, same counts, any order); that run is kept with it. A run of tool messages
 * whose assistant turn was not kept is dropped, and so is an assistant turn whose results are
 * missing, partial or extra (its text goes with it). Plain chat turns are always kept. Run it when
 * serialising a history (after a window cut, a deferral or a crash), not when recording.
 */
export function pairToolCycles(messages: readonly Message[]): Message[] {
  const entries = toTranscriptEntries(messages);
  const kept: TranscriptEntry[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.kind === 'chat') {
      kept.push(entry);
      continue;
    }
    if (entry.kind === 'tool_results') continue;
    const next = entries[index + 1];
    if (next?.kind !== 'tool_results') continue;
    const callIds = (entry.message.toolCalls ?? []).map((call) => call.id);
    const resultIds = next.messages.map((result) => result.toolCallId);
    if (!sameIds(callIds, resultIds)) continue;
    kept.push(entry, next);
    index += 1;
  }
  return fromTranscriptEntries(kept);
}
