import { createRefusedToolCall, type LanguageModelV1ToolCall } from '@tiny/llm';

/**
 * The calls of one whole response, every one refused (`createRefusedToolCall` of `@tiny/llm`) when
 * two of them share an id: which call a tool result answers would be ambiguous (and a relay that
 * merged two responses sends exactly this), so none of them may run or be repaired, however
 * readable its arguments. Calls with distinct ids come back unchanged (the same array). A refused
 * call keeps its raw argument text and says why.
 */
export function refuseRepeatedIds(calls: readonly LanguageModelV1ToolCall[]): readonly LanguageModelV1ToolCall[] {
  const seen = new Set<string>();
  let repeated: string | undefined;
  for (const call of calls) {
    if (seen.has(call.id)) {
      repeated = call.id;
      break;
    }
    seen.add(call.id);
  }
  if (repeated === undefined) return calls;
  const reason = `the response broke the protocol: tool call id \`${repeated}\` names two calls; no call of it may run`;
  return calls.map((call) => {
    if (call.refused === true) return call;
    const raw =
      call.rawArguments ?? (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments));
    return { ...call, ...createRefusedToolCall(call.id, call.name, raw, reason), rawArguments: raw };
  });
}
