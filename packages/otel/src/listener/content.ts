/** Serialises captured content for an attribute: strings as is, anything else as JSON, then truncated. */
export function contentAttribute(value: unknown, maxLength: number): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…[truncated ${text.length - maxLength} chars]` : text;
}
