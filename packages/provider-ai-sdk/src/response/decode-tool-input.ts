import { createInvalidToolCall, type LanguageModelV1ToolCall, recoverToolArguments } from '@tiny/llm';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Decodes the input string of an AI SDK `tool-call` (the provider's raw argument text) through the
 * invalid-call path: empty is `{}`, a JSON object is taken, relaxed JSON is repaired with
 * `recoverToolArguments`, and anything else is an invalid call holding the raw text and the reason.
 * An object input (a hand-written model) is taken as is. Never throws.
 * @internal
 */
export function decodeToolInput(
  id: string,
  name: string,
  input: unknown,
  context: 'response' | 'stream',
  extra: Pick<LanguageModelV1ToolCall, 'extraContent'> = {},
): LanguageModelV1ToolCall {
  if (isObject(input)) return { id, name, arguments: input, ...extra };
  const raw = typeof input === 'string' ? input : input === undefined || input === null ? '' : JSON.stringify(input);
  if (raw.trim() === '') return { id, name, arguments: {}, rawArguments: raw, ...extra };
  let detail = 'the arguments are not a JSON object';
  try {
    const value: unknown = JSON.parse(raw);
    if (isObject(value)) return { id, name, arguments: value, rawArguments: raw, ...extra };
  } catch (error) {
    detail = error instanceof Error ? error.message : String(error);
  }
  const repaired = recoverToolArguments(raw);
  if (repaired !== undefined) return { id, name, arguments: repaired, rawArguments: raw, ...extra };
  const reason = `${context} contained invalid JSON arguments for tool call \`${id}\` (\`${name}\`): ${detail}; raw arguments: ${raw}`;
  return { ...createInvalidToolCall(id, name, raw, reason), rawArguments: raw, ...extra };
}
