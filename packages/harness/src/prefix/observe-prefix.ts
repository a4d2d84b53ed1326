import type { Message, ToolSchema } from '@tiny/llm';
import type { LoopState } from '../agent/loop-state.js';
import type { PrefixSettings } from './prefix-fingerprint.js';

/**
 * Fingerprints the request about to be sent and, when its prefix diverges from the previous
 * request's, emits one `prompt_prefix_changed` naming every change. Returns the fingerprint's
 * digest (carried by `model_started`).
 * @internal
 */
export function observePrefix(
  state: LoopState,
  tools: readonly ToolSchema[],
  messages: readonly Message[],
  modelCallId: string,
  settings?: PrefixSettings,
): string {
  const { digest, broke } = state.prefix.observe(tools, messages, settings);
  if (broke !== undefined && state.sink.active)
    state.sink.emit({
      type: 'prompt_prefix_changed',
      modelCallId,
      turn: state.turn,
      fingerprint: digest,
      changes: broke.changes,
      lostPrefixTokens: broke.lostPrefixTokens,
    });
  return digest;
}
