import type { LanguageModelV1FinishReason } from '@tiny/llm';
import { normalizeFinishReason } from '@tiny/provider-utils';

/**
 * Maps a wire `finish_reason` onto the spec's reasons with `normalizeFinishReason`, whatever its
 * case (`stop`, `eos`, `length`, Mistral's `model_length`, `tool_calls`, `content_filter`, Gemini's
 * `SAFETY`, ...). A value it does not know (vLLM's `abort` and DeepSeek's
 * `insufficient_system_resource` are known as errors) is `error`, never a normal end, so a harness
 * refuses the calls of that turn. A response that carries tool calls but says `stop` (older Ollama
 * and llama.cpp builds do) is `tool_calls`. A missing or blank reason (`null`, absent, `''`,
 * whitespace) is no normal end: with tool calls it is `error`, so they are refused; without, `other`.
 * @internal
 */
export function mapFinishReason(raw: string | undefined, hasToolCalls: boolean): LanguageModelV1FinishReason {
  if (raw === undefined || raw.trim() === '') return hasToolCalls ? 'error' : 'other';
  const mapped = normalizeFinishReason(raw);
  if (!hasToolCalls) return mapped;
  if (mapped === 'stop') return 'tool_calls';
  return mapped === 'other' ? 'error' : mapped;
}

/**
 * The wire `finish_reason` as a string: absent for `null`, absent or `''`; any other non-string
 * value as a marker naming its type (`[array]`, `[object]`, `5`, `true`), never serialised (it may
 * nest without bound), so it maps to `error`, never to a normal end. @internal
 */
export function readFinishReason(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return '[array]';
  return typeof value === 'object' ? '[object]' : String(value);
}
