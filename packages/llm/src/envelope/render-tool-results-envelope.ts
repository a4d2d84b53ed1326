import type { FilePart, ImagePart } from '../messages/message.js';
import { escapeEnvelopeAttribute } from './escape-envelope-attribute.js';
import { escapeResultBody } from './escape-result-body.js';

/** The first line of every folded tool-results turn, newline included. */
export const TOOL_RESULTS_HEADER = '[Tool results]\n';

/**
 * One tool result as a text dialect shows it. `id` marks a replay from durable records and
 * `name` a fresh result; both are rendered when both are set (id first). `media` rides along as
 * extra message parts after the text.
 */
export interface ToolResultEntry {
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly isError?: boolean | undefined;
  readonly output: string;
  readonly media?: readonly (ImagePart | FilePart)[] | undefined;
  /** Shown raw, in a user message of its own, with the output at byte 0. */
  readonly trustedVerbatim?: boolean | undefined;
}

/**
 * Renders one `<tool_result …>` block: attributes `id`, `name` (each when set) and `status`
 * (`ok` or `error`), escaped; then the body on its own lines, rewritten only where it would open
 * or close a `tool_result` or `tool_call` tag.
 */
export function renderToolResultBlock(entry: ToolResultEntry): string {
  let attributes = '';
  if (entry.id !== undefined) attributes += ` id="${escapeEnvelopeAttribute(entry.id)}"`;
  if (entry.name !== undefined) attributes += ` name="${escapeEnvelopeAttribute(entry.name)}"`;
  attributes += ` status="${entry.isError === true ? 'error' : 'ok'}"`;
  return `<tool_result${attributes}>\n${escapeResultBody(entry.output)}\n</tool_result>`;
}

/**
 * Renders a batch as the text of one user turn: `[Tool results]`, then each block in order,
 * one per line. `trustedVerbatim` is ignored here; {@link foldToolResults} splits those out.
 */
export function renderToolResultsEnvelope(entries: readonly ToolResultEntry[]): string {
  return TOOL_RESULTS_HEADER + entries.map(renderToolResultBlock).join('\n');
}
