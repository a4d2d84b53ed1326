import type { Message, ToolSchema } from '@tiny/llm';
import type { LoopState } from '../agent/loop-state.js';
import type { PrefixSettings } from './prefix-fingerprint.js';

/**
 * Fingerprints the request about to be sent and, when its prefix diverges from the previous
 * request's, emits one `prompt_prefix_changed` naming every change. Returns the fingerprint's
 * digest (carried by `model_started`). What the model sends from its own settings
 * (`wireSettings()`) counts as a setting, and a model that hoists system messages into one field
 * (`profile.systemMessages`, unless its template takes them in the first user turn) has them
 * compared without positions. Tool declarations (and a response format's schema) are fingerprinted
 * after the profile's `schemaTransform`, as the adapter sends them: a transform that changes a
 * declaration is a `tools` change.
 * @internal
 */
export function observePrefix(
  state: LoopState,
  tools: readonly ToolSchema[],
  messages: readonly Message[],
  modelCallId: string,
  settings?: PrefixSettings,
): string {
  const model = state.model;
  const modelSettings = model.wireSettings?.();
  const profile = model.profile;
  const hoisted = profile.systemMessages === 'hoisted' && settings?.systemPlacement !== 'first_user';
  const transform = profile.schemaTransform;
  const observed: PrefixSettings | undefined =
    modelSettings === undefined && !hoisted && transform === undefined
      ? settings
      : {
          ...settings,
          ...(modelSettings === undefined ? {} : { modelSettings }),
          ...(hoisted ? { systemMessages: 'hoisted' as const } : {}),
          ...(transform === undefined ? {} : { schemaTransform: transform }),
        };
  // The run's own history only grows: what it held at the last request is not compared again.
  const { digest, broke } = state.prefix.observe(tools, messages, observed, messages === state.history);
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
