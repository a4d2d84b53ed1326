import type { HttpLimits } from '../limits/http-limits.js';
import { readBodyText } from './read-body-text.js';

/** Error bodies are kept for logs up to this many characters. */
export const MAX_ERROR_BODY_CHARS = 8192;

/** Parses JSON text; `undefined` when it is not JSON. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads the body of an HTTP error answer for the error built from it: its head only (at most
 * `MAX_ERROR_BODY_CHARS * 4` bytes, so an endless body is cut rather than read, within the other
 * `limits`), as `text` (`''` when it could not be read: the status still says enough), `json` (the
 * parsed body, `undefined` when it is not JSON) and `fallback` (the trimmed text cut to 500
 * characters, for a message when the body holds none; `undefined` when empty).
 */
export async function readErrorBody(
  response: Response,
  limits?: HttpLimits | undefined,
): Promise<{ text: string; json: unknown; fallback: string | undefined }> {
  let text = '';
  try {
    text = await readBodyText(response, { ...limits, maxResponseBytes: MAX_ERROR_BODY_CHARS * 4 }, { truncate: true });
  } catch {
    // the body could not be read; the status still says enough
  }
  const trimmed = text.trim();
  return { text, json: tryParseJson(text), fallback: trimmed === '' ? undefined : trimmed.slice(0, 500) };
}
