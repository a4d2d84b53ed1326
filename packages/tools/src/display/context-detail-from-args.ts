/** Longest detail `contextDetailFromArgs` returns, counting the trailing `...`. */
export const CONTEXT_DETAIL_MAX_CHARS = 80;

/** Argument keys worth showing next to a tool's label, most telling first. */
const detailKeys = [
  'to',
  'recipient',
  'recipient_email',
  'to_email',
  'email',
  'query',
  'q',
  'search',
  'search_query',
  'url',
  'file_path',
  'path',
  'command',
  'cmd',
  'subject',
  'title',
  'channel',
  'channel_id',
  'repo',
  'repository',
  'name',
  'id',
] as const;

const ellipsis = '...';

/**
 * Picks a short detail from a tool call's arguments for display, such as the recipient, query,
 * path or command (`Send Email · ada@example.com`).
 *
 * Looks at the own keys `to, recipient, recipient_email, to_email, email, query, q, search,
 * search_query, url, file_path, path, command, cmd, subject, title, channel, channel_id, repo,
 * repository, name, id`, in that order. The first whose value is a string, number or boolean, or
 * an array of only strings (joined with `, `), and renders non-empty wins. Runs of whitespace
 * become one space and the ends are trimmed. A rendering longer than
 * {@link CONTEXT_DETAIL_MAX_CHARS} is cut to fit with a trailing `...`; lengths count UTF-16 code
 * units (JavaScript `length`), and the cut never splits a surrogate pair.
 *
 * @returns `undefined` when `args` is not a plain object (`null`, arrays and primitives included)
 *   or no key renders.
 */
export function contextDetailFromArgs(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return undefined;
  }
  for (const key of detailKeys) {
    if (!Object.hasOwn(args, key)) {
      continue;
    }
    const text = renderValue((args as Record<string, unknown>)[key]);
    if (text === undefined) {
      continue;
    }
    const detail = text.replace(/\s+/g, ' ').trim();
    if (detail.length > 0) {
      return truncateWithEllipsis(detail, CONTEXT_DETAIL_MAX_CHARS);
    }
  }
  return undefined;
}

function renderValue(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.join(', ');
  }
  return undefined;
}

/** Cuts `text` to at most `maxChars` code units, ending in `...` (itself clamped to `maxChars`). */
function truncateWithEllipsis(text: string, maxChars: number): string {
  if (text.length <= maxChars) {
    return text;
  }
  const marker = ellipsis.slice(0, Math.max(0, maxChars));
  let end = maxChars - marker.length;
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) {
    end -= 1;
  }
  return text.slice(0, end) + marker;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
