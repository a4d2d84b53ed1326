import type { LanguageModelV1CallWarning, LanguageModelV1ToolCall } from '@tiny/llm';
import { stringifyWire } from '@tiny/provider-utils';
import { googleExtraOf } from '../request/to-gemini-contents.js';

/** What makes two calls the same call: the function and its arguments, for calls without an API id. @internal */
export function repeatKey(call: LanguageModelV1ToolCall): string | undefined {
  if (call.invalid !== undefined || googleExtraOf(call.extraContent).id !== undefined) return undefined;
  return `${call.name}\u0000${stringifyWire(call.arguments, '')}`;
}

/** The warning for a dropped copy of a call. @internal */
export function repeatWarning(kept: LanguageModelV1ToolCall): LanguageModelV1CallWarning {
  return {
    type: 'other',
    message: `Gemini sent call \`${kept.id}\` (\`${kept.name}\`) again with the same arguments; the copy was dropped, so the call runs once`,
  };
}

/**
 * The calls of one turn without exact repeats: a `functionCall` with the same function and the
 * same arguments as an earlier one, neither carrying an API id, is the same call sent again (a
 * degenerate Gemini generation streams one complete call over and over: reported with
 * `gemini-3.1-pro-preview`, 107 copies in one response). Only the first is kept, so a call never
 * runs twice because the model repeated itself; each dropped copy adds a warning. Calls with API
 * ids are distinct by id. Returns the same array when nothing repeats.
 * @internal
 */
export function dropExactRepeats(
  calls: readonly LanguageModelV1ToolCall[],
  warnings: LanguageModelV1CallWarning[],
): readonly LanguageModelV1ToolCall[] {
  const seen = new Map<string, LanguageModelV1ToolCall>();
  const kept = calls.filter((call) => {
    const key = repeatKey(call);
    if (key === undefined) return true;
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, call);
      return true;
    }
    warnings.push(repeatWarning(earlier));
    return false;
  });
  return kept.length === calls.length ? calls : kept;
}
