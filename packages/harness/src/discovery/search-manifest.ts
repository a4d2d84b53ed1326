import type { DeferredCatalogueEntry } from './deferred-catalogue.js';

/** Longest summary in the manifest, in characters, before `…`. */
export const MANIFEST_SUMMARY_MAX_CHARS = 60;

/** Default manifest budget: 4,000 tokens at 4 bytes a token. */
export const DEFAULT_MANIFEST_TOKEN_BUDGET = 4000;

const utf8 = new TextEncoder();

/**
 * The first sentence of `text`: up to the first `.`, `!` or `?` followed by whitespace or the end,
 * whitespace collapsed, cut to {@link MANIFEST_SUMMARY_MAX_CHARS} characters plus `…`.
 */
export function firstSentence(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=\s|$)/.exec(collapsed);
  const sentence = end === null ? collapsed : collapsed.slice(0, end.index + 1);
  const characters = [...sentence];
  return characters.length > MANIFEST_SUMMARY_MAX_CHARS
    ? `${characters.slice(0, MANIFEST_SUMMARY_MAX_CHARS).join('')}…`
    : sentence;
}

/**
 * The manifest appended to `tool_search`'s description, within `budgetBytes` (UTF-8): the header
 * `N deferred tool(s) are searchable:` and one `- name: first sentence` line per tool; if that is
 * too long, the header and `- name` lines; if that is still too long, the count line alone.
 * Entries keep catalogue (name) order. Empty for an empty catalogue.
 */
export function renderSearchManifest(entries: readonly DeferredCatalogueEntry[], budgetBytes: number): string {
  if (entries.length === 0) return '';
  const header = `${entries.length} deferred tool(s) are searchable:`;
  const full = [header, ...entries.map((entry) => summaryLine(entry))].join('\n');
  if (utf8.encode(full).length <= budgetBytes) return full;
  const names = [header, ...entries.map((entry) => `- ${entry.name}`)].join('\n');
  if (utf8.encode(names).length <= budgetBytes) return names;
  return `${entries.length} deferred tool(s) are searchable; describe what you need to find them.`;
}

function summaryLine(entry: DeferredCatalogueEntry): string {
  const summary = firstSentence(entry.description);
  return summary.length === 0 ? `- ${entry.name}` : `- ${entry.name}: ${summary}`;
}
