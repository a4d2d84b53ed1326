import {
  coalesceToolResults,
  ensureResolvableUserTurn,
  type Message,
  pairToolCycles,
  type ToolChoice,
  type ToolSchema,
  withToolInstructions,
} from '@tiny/llm';

/**
 * Reshapes a history for a model driven through its chat template, without a tool channel (P4):
 * `pairToolCycles` (no orphaned results), `coalesceToolResults` (calls written into the assistant
 * text as `<tool_call>` blocks, results folded into `[Tool results]` user turns),
 * `ensureResolvableUserTurn` (a user query for templates that need one), then
 * `withToolInstructions` (the protocol block, the catalogue and any forced-choice sentence
 * appended to the system prompt; nothing for no tools or choice `none`).
 * @internal
 */
export function promptGuidedMessages(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  choice: ToolChoice | undefined,
): Message[] {
  const folded = coalesceToolResults(pairToolCycles(messages), { tools });
  return withToolInstructions(ensureResolvableUserTurn(folded), tools, choice ?? { type: 'auto' });
}
