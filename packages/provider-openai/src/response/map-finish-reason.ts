import type { LanguageModelV1FinishReason } from '@tiny/llm';

/**
 * Maps a wire `finish_reason` onto the spec's reasons. `stop` (and `eos`, `end_turn`), `length`
 * (and `max_tokens`), `tool_calls` (and the legacy `function_call`), `content_filter`, `error`;
 * anything else, including `null` or absent, is `other`. A response that carries tool calls but
 * says `stop` (older Ollama and llama.cpp builds do) is `tool_calls`.
 * @internal
 */
export function mapFinishReason(raw: string | undefined, hasToolCalls: boolean): LanguageModelV1FinishReason {
  const mapped = baseReason(raw);
  return hasToolCalls && (mapped === 'stop' || mapped === 'other') ? 'tool_calls' : mapped;
}

function baseReason(raw: string | undefined): LanguageModelV1FinishReason {
  switch (raw) {
    case 'stop':
    case 'eos':
    case 'end_turn':
      return 'stop';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}
