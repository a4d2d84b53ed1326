import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { normalizeFinishReason } from '@tiny/provider-utils';

/**
 * Maps a wire `finish_reason` onto the spec's reasons with `normalizeFinishReason`, whatever its
 * case (`stop`, `eos`, `length`, Mistral's `model_length`, `tool_calls`, `content_filter`, Gemini's
 * `SAFETY`, ...). A value it does not know (vLLM's `abort` and DeepSeek's
 * `insufficient_system_resource` are known as errors) is `error`, never a normal end, so a harness
 * refuses the calls of that turn. A response that carries tool calls but says `stop` (older Ollama
 * and llama.cpp builds do), or says nothing (`null` or absent), is `tool_calls`; without calls, an
 * absent reason is `other`.
 * @internal
 */
export function mapFinishReason(raw: string | undefined, hasToolCalls: boolean): LanguageModelV1FinishReason {
  if (raw === undefined || raw.trim() === '') return hasToolCalls ? 'tool_calls' : 'other';
  const mapped = normalizeFinishReason(raw);
  return hasToolCalls && mapped === 'stop' ? 'tool_calls' : mapped;
}

/**
 * The wire `finish_reason` as a string: absent for `null`, absent or `''`; any other non-string
 * value as its JSON (so it maps to `error`, never to a normal end). @internal
 */
export function readFinishReason(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
