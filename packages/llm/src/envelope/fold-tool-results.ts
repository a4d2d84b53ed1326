import type { TextPart, UserMessage } from '../messages/message.js';
import { renderToolResultsEnvelope, type ToolResultEntry } from './render-tool-results-envelope.js';
import { markVerbatimResultTurn } from './tool-results-turn.js';

function userTurn(text: string, entries: readonly ToolResultEntry[]): UserMessage {
  const media = entries.flatMap((entry) => entry.media ?? []);
  if (media.length === 0) return { role: 'user', content: text };
  const textPart: TextPart = { type: 'text', text };
  return { role: 'user', content: [textPart, ...media] };
}

/**
 * Folds a batch of tool results into the user turns a text dialect sends back: consecutive
 * results share one `[Tool results]` turn; a `trustedVerbatim` result closes the current turn
 * and gets a user turn of its own whose text is the raw output, starting at byte 0, unescaped.
 * Order is kept. An empty batch folds to no turns.
 */
export function foldToolResults(entries: readonly ToolResultEntry[]): UserMessage[] {
  const turns: UserMessage[] = [];
  let batch: ToolResultEntry[] = [];
  const closeBatch = (): void => {
    if (batch.length > 0) turns.push(userTurn(renderToolResultsEnvelope(batch), batch));
    batch = [];
  };
  for (const entry of entries) {
    if (entry.trustedVerbatim !== true) {
      batch.push(entry);
      continue;
    }
    closeBatch();
    turns.push(markVerbatimResultTurn(userTurn(entry.output, [entry])));
  }
  closeBatch();
  return turns;
}
