import { type Message, messageText, type UserMessage } from '../messages/message.js';
import { TOOL_RESULTS_HEADER } from './render-tool-results-envelope.js';

const verbatimTurns = new WeakSet<object>();

/**
 * Records that `message` is a trusted-verbatim tool result shown as a user turn, so
 * {@link isToolResultsTurn} recognises it although its text carries no marker.
 *
 * @internal
 */
export function markVerbatimResultTurn(message: UserMessage): UserMessage {
  verbatimTurns.add(message);
  return message;
}

/**
 * True when a user message holds tool results rather than something the user asked: its text
 * starts with `[Tool results]\n` (a folded envelope turn), or it is a trusted-verbatim result
 * turn made by `foldToolResults` in this process. The second test is by object identity, so a
 * verbatim turn that was copied or deserialised counts as an ordinary user turn.
 */
export function isToolResultsTurn(message: Message): boolean {
  if (message.role !== 'user') return false;
  if (verbatimTurns.has(message)) return true;
  if (typeof message.content === 'string') return message.content.startsWith(TOOL_RESULTS_HEADER);
  return messageText(message).startsWith(TOOL_RESULTS_HEADER);
}
