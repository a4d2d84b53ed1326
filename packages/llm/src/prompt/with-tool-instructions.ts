import type { Message, SystemMessage, TextPart } from '../messages/message.js';
import type { ToolChoice } from '../spec/tool-choice.js';
import type { ToolSchema } from '../spec/tool-schema.js';
import { toolInstructions } from './tool-instructions.js';

/**
 * Adds `instructions` to the system prompt: as a separate text part after the content of the
 * first system message (a string content becomes a text part; an empty one is dropped), or, when
 * there is no system message, as a new system message at the front. An empty `instructions`
 * string leaves the list as it is. Returns a new array; messages are not mutated.
 */
export function appendSystemInstructions(messages: readonly Message[], instructions: string): Message[] {
  if (instructions === '') return [...messages];
  const part: TextPart = { type: 'text', text: instructions };
  const index = messages.findIndex((message) => message.role === 'system');
  if (index < 0) return [{ role: 'system', content: [part] }, ...messages];
  const system = messages[index] as SystemMessage;
  const existing: readonly TextPart[] =
    typeof system.content === 'string'
      ? system.content === ''
        ? []
        : [{ type: 'text', text: system.content }]
      : system.content;
  const updated: SystemMessage = { ...system, content: [...existing, part] };
  return [...messages.slice(0, index), updated, ...messages.slice(index + 1)];
}

/**
 * Puts the prompt-guided tool instructions ({@link toolInstructions}: protocol block, catalogue,
 * forced-choice sentence) into the system prompt with {@link appendSystemInstructions}. With no
 * tools, or with choice `none`, the list is returned unchanged (as a new array).
 */
export function withToolInstructions(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  choice: ToolChoice = { type: 'auto' },
): Message[] {
  return appendSystemInstructions(messages, toolInstructions(tools, choice));
}
