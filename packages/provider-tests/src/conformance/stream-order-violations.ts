import type { LanguageModelV1StreamPart } from '@tiny/llm';

const contentTypes = new Set([
  'text_delta',
  'reasoning_delta',
  'refusal_delta',
  'tool_call_start',
  'tool_call_delta',
  'tool_call_end',
]);

/**
 * Checks a stream against the order `LanguageModelV1StreamPart` documents, and lists what breaks
 * it (empty when the order holds):
 * - at most one `response_metadata`, before any content part;
 * - exactly one terminal part (`finish` or `error`), and nothing after it;
 * - per call id: one `tool_call_start`, then its deltas, then at most one `tool_call_end`; nothing
 *   for that id after its end.
 */
export function streamOrderViolations(parts: readonly LanguageModelV1StreamPart[]): string[] {
  const problems: string[] = [];
  let contentSeen = false;
  let metadataCount = 0;
  let terminalAt = -1;
  const started = new Set<string>();
  const ended = new Set<string>();
  parts.forEach((part, index) => {
    const at = `part ${index} (${part.type})`;
    if (terminalAt >= 0) problems.push(`${at}: after the terminal part ${terminalAt}`);
    if (part.type === 'response_metadata') {
      metadataCount += 1;
      if (metadataCount > 1) problems.push(`${at}: a second response_metadata`);
      if (contentSeen) problems.push(`${at}: response_metadata after content`);
    }
    if (contentTypes.has(part.type)) contentSeen = true;
    if (part.type === 'tool_call_start') {
      if (started.has(part.id)) problems.push(`${at}: call ${part.id} started twice`);
      started.add(part.id);
    }
    if (part.type === 'tool_call_delta' || part.type === 'tool_call_end') {
      if (!started.has(part.id)) problems.push(`${at}: call ${part.id} before its tool_call_start`);
      if (ended.has(part.id)) problems.push(`${at}: call ${part.id} after its tool_call_end`);
      if (part.type === 'tool_call_end') ended.add(part.id);
    }
    if ((part.type === 'finish' || part.type === 'error') && terminalAt < 0) terminalAt = index;
  });
  if (terminalAt < 0) problems.push('no finish or error part');
  return problems;
}
