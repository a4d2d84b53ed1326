import type { ModelProfile } from '@tiny/llm';
import type { ResponseFormatKind, StructuredStrategy } from '../format/response-format.js';

/**
 * The strategy for a format on a model. Explicit kinds are kept (`json_schema` means `provider`).
 * `auto`: a profile whose `defaultStructuredMode` is `prompted` gets `prompted`, one that prefers
 * `tool` and calls tools gets `tool`; otherwise `provider` only when the profile declares native
 * `json_schema` output, else `tool` when the model calls tools, else `prompted`.
 */
export function selectStrategy(kind: ResponseFormatKind, profile: ModelProfile): StructuredStrategy {
  switch (kind) {
    case 'provider':
    case 'json_schema':
      return 'provider';
    case 'tool':
      return 'tool';
    case 'prompted':
      return 'prompted';
    case 'auto':
      if (profile.defaultStructuredMode === 'prompted') return 'prompted';
      if (profile.defaultStructuredMode === 'tool' && profile.toolCalling) return 'tool';
      if (profile.structuredOutput === 'json_schema') return 'provider';
      return profile.toolCalling ? 'tool' : 'prompted';
  }
}

/**
 * The strategies to try in order: for `auto`, a `provider` choice may fall back to `tool` (only
 * for a model that calls tools) and then to `prompted`; a `tool` choice may fall back to
 * `prompted`. Explicit kinds never fall back.
 */
export function strategyChain(kind: ResponseFormatKind, profile: ModelProfile): StructuredStrategy[] {
  const first = selectStrategy(kind, profile);
  if (kind !== 'auto') return [first];
  if (first === 'provider') return profile.toolCalling ? ['provider', 'tool', 'prompted'] : ['provider', 'prompted'];
  if (first === 'tool') return ['tool', 'prompted'];
  return [first];
}
