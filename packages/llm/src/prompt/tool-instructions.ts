import type { ToolChoice } from '../spec/tool-choice.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { renderJsonProtocol } from './render-json-protocol.js';

/**
 * The sentence that spells out a forced tool choice: `You must emit at least one tool call.`
 * for `required`, ``You must call the `X` tool.`` for a named tool, and an empty string for
 * `auto` and `none`.
 */
export function toolChoiceInstruction(choice: ToolChoice): string {
  if (choice.type === 'required') return 'You must emit at least one tool call.';
  if (choice.type === 'tool') return `You must call the \`${choice.toolName}\` tool.`;
  return '';
}

/**
 * The system-prompt text for a model that writes JSON calls in `<tool_call>` tags: the Tool Use
 * Protocol block with its full-schema catalogue, then the forced-choice sentence from
 * {@link toolChoiceInstruction} after a blank line (nothing extra for `auto`). Empty when there
 * are no tools or the choice is `none`.
 */
export function toolInstructions(tools: readonly ToolSchema[], choice: ToolChoice = { type: 'auto' }): string {
  if (choice.type === 'none' || tools.length === 0) return '';
  const sentence = toolChoiceInstruction(choice);
  const block = renderJsonProtocol(tools);
  return sentence === '' ? block : `${block}\n\n${sentence}`;
}
