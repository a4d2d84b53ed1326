/** What a secret is replaced with in error messages and bodies. */
export const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of `secret` in `text` with `[redacted]`. Secrets shorter than four
 * characters are left alone (they would match ordinary words), and so is `undefined` text.
 */
export function redactSecret<T extends string | undefined>(text: T, secret: string | undefined): T {
  if (text === undefined || secret === undefined || secret.length < 4) return text;
  return text.split(secret).join(REDACTED) as T;
}
