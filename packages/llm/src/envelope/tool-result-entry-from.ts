import { messageText, type ToolMessage } from '../messages/message.js';
import type { ToolResultEntry } from './render-tool-results-envelope.js';

/**
 * The envelope entry for a recorded tool message: `name` when the tool name is known (a fresh
 * result), else `id` (a replay from records that only kept the call id); the text parts joined
 * as the output; image and file parts as media; the error and trusted-verbatim flags.
 */
export function toolResultEntryFrom(message: ToolMessage): ToolResultEntry {
  const media = typeof message.content === 'string' ? [] : message.content.filter((part) => part.type !== 'text');
  return {
    ...(message.toolName === undefined ? { id: message.toolCallId } : { name: message.toolName }),
    isError: message.isError === true,
    output: messageText(message),
    media,
    trustedVerbatim: message.trustedVerbatim === true,
  };
}
