const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attribute values. @internal */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] as string);
}
