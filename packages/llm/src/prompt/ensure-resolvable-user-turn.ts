import { isToolResultsTurn } from '../envelope/tool-results-turn.js';
import { type Message, messageText } from '../messages/message.js';

/** The user turn inserted when a history has none the chat template can use as the query. */
export const CONTINUATION_PROMPT = 'Continue with the task described above.';

/** A user turn with non-blank text or any non-text part, that is not a folded tool-results turn. */
function isResolvableUserTurn(message: Message): boolean {
  if (message.role !== 'user' || isToolResultsTurn(message)) return false;
  if (messageText(message).trim() !== '') return true;
  return typeof message.content !== 'string' && message.content.some((part) => part.type !== 'text');
}

/**
 * Makes sure the history has a user turn a chat template can resolve as "the user query" (Qwen
 * 3.5 raises `No user query found in messages.` without one; the Mistral templates need a user
 * turn after the system prompt). A user turn counts when it has non-blank text or any image or
 * file part and is not a tool-results turn (see `isToolResultsTurn`). When none counts, a user
 * turn with {@link CONTINUATION_PROMPT} is inserted right after the leading system messages.
 * Returns a new array; messages are not mutated.
 */
export function ensureResolvableUserTurn(messages: readonly Message[]): Message[] {
  if (messages.some(isResolvableUserTurn)) return [...messages];
  let index = 0;
  while (messages[index]?.role === 'system') index += 1;
  return [...messages.slice(0, index), { role: 'user', content: CONTINUATION_PROMPT }, ...messages.slice(index)];
}
